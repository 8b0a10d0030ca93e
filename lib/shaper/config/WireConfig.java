package shaper.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Provider-scope settings of the upstream wire: how long an idle keep-alive connection may wait
 * for its next request, and the forward proxy connections go through.
 *
 * @param idleTimeout {@code -upstream-idle-timeout}: an upstream connection idle this long is closed
 *                    instead of reused (0: none is reused); never null
 * @param proxy       {@code -upstream-proxy}: {@code http://host[:port]} or {@code socks5://host[:port]},
 *                    {@link #DIRECT} for none whatever the environment says, or null to follow the
 *                    environment ({@code https_proxy}, {@code http_proxy}, {@code all_proxy}, {@code no_proxy})
 */
public record WireConfig(Duration idleTimeout, String proxy) {
    /** {@code -upstream-proxy direct}: connect straight to the upstream even when the environment names a proxy. */
    public static final String DIRECT = "direct";

    /**
     * Under the 5 s after which Node's and uvicorn's servers (and Apache's by default) close an idle
     * connection, with two seconds to spare: a request written onto a connection the upstream is
     * closing at that moment is lost without a word, and whether the upstream read it cannot be known.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(3);

    public static final WireConfig DEFAULTS = new WireConfig(DEFAULT_IDLE_TIMEOUT, null);

    public WireConfig {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative()) {
            throw new ConfigException("-upstream-idle-timeout must be >= 0, got " + GoDuration.format(idleTimeout));
        }
    }
}
