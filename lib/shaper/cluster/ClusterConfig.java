package shaper.cluster;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

import shaper.config.ConfigException;
import shaper.config.GoDuration;

/**
 * Where one provider's limiters keep their slots, validated once at startup.
 *
 * @param backend   where the limits live ({@code -limiter-backend}: {@code redis://}, {@code rediss://},
 *                  {@code redis-sentinel://}, {@code redis-cluster://}), or {@code null} for the in-process limiters (the default)
 * @param namespace key prefix shared by every instance of one budget ({@code -limiter-namespace});
 *                  {@code null} derives it from the upstream (see {@link #namespaceFor})
 * @param fallback  behaviour while Redis is unreachable ({@code -limiter-redis-fallback}, default {@code local})
 * @param lease     how long a permit lives in Redis without renewal ({@code -limiter-lease}, default 15s):
 *                  the longest a crashed instance's slots stay taken; renewed every third of it
 * @param timeout   a Redis call slower than this counts as Redis being unreachable ({@code -limiter-redis-timeout}, default 2s)
 * @param security  credentials and TLS files ({@code -limiter-redis-auth}, {@code -limiter-redis-ca}, {@code -cert}, {@code -key})
 */
public record ClusterConfig(RedisEndpoint backend, String namespace, RedisFallback fallback, Duration lease, Duration timeout,
                            RedisSecurity security) {
    /** The default lease. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);
    /** Shortest lease accepted: renewals every third of it must fit in a loaded machine's scheduling jitter. */
    public static final Duration MIN_LEASE = Duration.ofMillis(600);
    /** The default call timeout: long enough for a loaded machine's scheduling stalls, short enough to fall back soon. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    /** Every limiter in this process, no Redis. */
    public static final ClusterConfig IN_PROCESS = new ClusterConfig(null, null, RedisFallback.LOCAL, DEFAULT_LEASE, DEFAULT_TIMEOUT,
            RedisSecurity.DEFAULT);

    public ClusterConfig {
        Objects.requireNonNull(fallback, "fallback");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(security, "security");
        if (timeout.toMillis() < 1 || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new ConfigException("-limiter-redis-timeout must be >= 1ms, got " + GoDuration.format(timeout));
        }
        if (lease.compareTo(MIN_LEASE) < 0) {
            throw new ConfigException("-limiter-lease must be >= " + GoDuration.format(MIN_LEASE) + ", got " + GoDuration.format(lease));
        }
        if (security.tlsFiles() && (backend == null || !backend.tls())) {
            throw new ConfigException("-limiter-redis-ca, -limiter-redis-cert and -limiter-redis-key need a rediss:// -limiter-backend");
        }
        if (namespace != null && (namespace.isBlank() || namespace.chars().anyMatch(c -> c <= ' '))) {
            throw new ConfigException("-limiter-namespace: must be non-empty without spaces, got \"" + namespace + "\"");
        }
    }

    /** Whether the limiters are shared through Redis. */
    public boolean clustered() {
        return backend != null;
    }

    /**
     * The key prefix: the explicit namespace, else {@code shaper:} plus the upstream's scheme, host,
     * port and path, so two instances configured for one upstream share a budget without extra flags.
     * Never contains the upstream's user info or query.
     */
    public String namespaceFor(URI upstream) {
        if (namespace != null) {
            return namespace;
        }
        int port = upstream.getPort() != -1 ? upstream.getPort() : "https".equals(upstream.getScheme()) ? 443 : 80;
        String path = upstream.getRawPath() == null ? "" : upstream.getRawPath().replaceAll("/+$", "");
        return "shaper:" + upstream.getScheme() + "://" + upstream.getHost().toLowerCase(java.util.Locale.ROOT) + ":" + port + path;
    }
}
