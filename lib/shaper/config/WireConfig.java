package shaper.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Provider-scope settings of the upstream wire: how long an idle keep-alive connection may wait
 * for its next request, the forward proxy connections go through and its credentials, and the TLS
 * trust and client certificate for the upstream. Only sources: files and secrets are read when
 * the provider is assembled (at startup and at each reload), so this can be printed and compared.
 *
 * @param idleTimeout {@code -upstream-idle-timeout}: an upstream connection idle this long is closed
 *                    instead of reused (0: none is reused); never null
 * @param proxy       {@code -upstream-proxy}: {@code http://host[:port]} or {@code socks5://host[:port]},
 *                    {@link #DIRECT} for none whatever the environment says, or null to follow the
 *                    environment ({@code https_proxy}, {@code http_proxy}, {@code all_proxy}, {@code no_proxy})
 * @param proxyAuth   {@code -upstream-proxy-auth}: {@code env:VAR} or {@code file:PATH} holding
 *                    {@code user:password} for the egress proxy, or null for none
 * @param tls         the upstream's TLS files
 */
public record WireConfig(Duration idleTimeout, String proxy, String proxyAuth, UpstreamTlsFiles tls) {
    /** {@code -upstream-proxy direct}: connect straight to the upstream even when the environment names a proxy. */
    public static final String DIRECT = "direct";

    /**
     * Under the 5 s after which Node's and uvicorn's servers (and Apache's by default) close an idle
     * connection, with two seconds to spare: a request written onto a connection the upstream is
     * closing at that moment is lost without a word, and whether the upstream read it cannot be known.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(3);

    public static final WireConfig DEFAULTS = new WireConfig(DEFAULT_IDLE_TIMEOUT, null, null, UpstreamTlsFiles.NONE);

    public WireConfig {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(tls, "tls");
        if (idleTimeout.isNegative()) {
            throw new ConfigException("-upstream-idle-timeout must be >= 0, got " + GoDuration.format(idleTimeout));
        }
    }

    /**
     * The PEM files of the upstream's TLS.
     *
     * @param ca     {@code -upstream-ca}: CA certificates added to the system trust, or null
     * @param caOnly {@code -upstream-ca-only}: {@code ca} replaces the system trust instead
     * @param cert   {@code -upstream-client-cert}: the client certificate chain for mutual TLS, or null
     * @param key    {@code -upstream-client-key}: its unencrypted PKCS#8 key; set exactly when {@code cert} is
     */
    public record UpstreamTlsFiles(Path ca, boolean caOnly, Path cert, Path key) {
        public static final UpstreamTlsFiles NONE = new UpstreamTlsFiles(null, false, null, null);

        public UpstreamTlsFiles {
            if (caOnly && ca == null) {
                throw new ConfigException("-upstream-ca-only needs -upstream-ca (the bundle that replaces the system trust)");
            }
            if ((cert == null) != (key == null)) {
                throw new ConfigException("-upstream-client-cert and -upstream-client-key go together (mutual TLS needs both)");
            }
        }
    }
}
