package shaper.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Provider-scope settings of the upstream wire: how long an idle keep-alive connection may wait
 * for its next request.
 *
 * @param idleTimeout {@code -upstream-idle-timeout}: an upstream connection idle this long is closed
 *                    instead of reused (0: none is reused); never null
 */
public record WireConfig(Duration idleTimeout) {
    /**
     * Under the 5 s after which Node's and uvicorn's servers (and Apache's by default) close an idle
     * connection, with two seconds to spare: a request written onto a connection the upstream is
     * closing at that moment is lost without a word, and whether the upstream read it cannot be known.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(3);

    public static final WireConfig DEFAULTS = new WireConfig(DEFAULT_IDLE_TIMEOUT);

    public WireConfig {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative()) {
            throw new ConfigException("-upstream-idle-timeout must be >= 0, got " + GoDuration.format(idleTimeout));
        }
    }
}
