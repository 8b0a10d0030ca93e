package shaper.proxy.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How an upstream client keeps connections between requests.
 *
 * @param size        idle keep-alive connections kept (0 keeps none)
 * @param keepAlive   false for {@code -upstream-disable-keep-alives}: every request on a fresh connection,
 *                    sent with {@code Connection: close}
 * @param idleTimeout {@code -upstream-idle-timeout}: a connection idle this long is closed instead of
 *                    reused; an upstream's own {@code Keep-Alive: timeout=N} shortens it per connection
 */
public record Pooling(int size, boolean keepAlive, Duration idleTimeout) {
    public Pooling {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (size < 0) {
            throw new IllegalArgumentException("size: " + size + " (expected: >= 0)");
        }
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout: " + idleTimeout + " (expected: >= 0)");
        }
    }
}
