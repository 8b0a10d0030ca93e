package shaper.cluster;

import java.net.URI;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;

import shaper.admission.LimiterFactory;
import shaper.limit.Limiter;
import shaper.limit.TimeSource;

/**
 * One provider's cluster backend: its {@link RedisLink} and the factory of its {@link ClusterLimiter}s,
 * all under the provider's namespace. Built once at startup when {@code -limiter-backend} is set;
 * closing it closes the link (permits still held expire in Redis after the lease).
 */
public final class ClusterBackend implements LimiterFactory, AutoCloseable {
    private final ClusterConfig config;
    private final String namespace;
    private final RedisLink link;
    private final TimeSource time;

    private ClusterBackend(ClusterConfig config, String namespace, RedisLink link, TimeSource time) {
        this.config = config;
        this.namespace = namespace;
        this.link = link;
        this.time = time;
    }

    /**
     * Connects in the background (the shaper starts on the fallback if Redis is not up yet).
     *
     * @param upstream the provider's upstream, from which the default namespace is derived
     * @param env      environment lookup, for {@value RedisEndpoint#PASSWORD_ENV}
     * @param log      transition lines
     */
    public static ClusterBackend open(ClusterConfig config, URI upstream, TimeSource time, Function<String, String> env,
                                      Consumer<String> log) {
        if (!config.clustered()) {
            throw new IllegalArgumentException("no -limiter-backend configured");
        }
        String ns = config.namespaceFor(upstream);
        RedisLink link = new RedisLink(RedisEndpoint.of(config.backend()), ns, config.fallback(), config.timeout(),
                env.apply(RedisEndpoint.PASSWORD_ENV), log);
        return new ClusterBackend(config, ns, link, time);
    }

    @Override
    public Limiter create(String key, String name, int limit, Duration releaseCooldown, Duration headroomWindow) {
        return new ClusterLimiter(namespace, key, name, limit, releaseCooldown, headroomWindow, config.lease(), link, time);
    }

    /** The key prefix in use. */
    public String namespace() {
        return namespace;
    }

    /** The link's state, for health and metrics. */
    public LinkSnapshot snapshot() {
        return link.snapshot();
    }

    /** One startup line: where the limits live, never a password. */
    public String describe() {
        return "limits shared through " + link.snapshot().endpoint() + " namespace=" + namespace + " lease="
                + shaper.config.GoDuration.format(config.lease()) + " timeout=" + shaper.config.GoDuration.format(config.timeout()) + " fallback=" + config.fallback().name().toLowerCase();
    }

    @Override
    public void close() {
        link.close();
    }
}
