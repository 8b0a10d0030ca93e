package shaper.admission;

import java.time.Duration;
import java.util.List;

import shaper.config.ConfigException;
import shaper.config.DurationFlags;
import shaper.route.RouteTable;

/**
 * One provider's concurrency settings, validated once at startup.
 *
 * @param limits                    raw {@code -limit} patterns in order; empty = the default pattern list
 * @param limitAll                  {@code -limit-all}: requests matching no pattern take a default-pool slot
 * @param concurrency               {@code -concurrency}: the default pool's size (default 4, at least 1)
 * @param globalConcurrency         {@code -global-concurrency}: one limiter over all limited and passthrough traffic (0 = off)
 * @param queueTimeout              {@code -queue-timeout}: the longest wait for slots (default 30s, 0 = forever)
 * @param queueDepth                {@code -queue-depth}: waiters allowed per limiter before 429 (0 = unbounded)
 * @param queueComments             {@code -queue-comments}: SSE comment interval while queued (0 = off)
 * @param releaseCooldown           {@code -release-cooldown}: delay before a released slot is reusable (default 200ms)
 * @param cancelCooldown            {@code -cancel-cooldown}: hold after a client leaves once upstream was contacted (default 200ms)
 * @param failureHold               {@code -failure-hold}: hold after an upstream failure without a breaker penalty (default 2s)
 * @param adaptiveHeadroom          {@code -adaptive-headroom}: withhold one slot after a 429
 * @param adaptiveHeadroomWindow    {@code -adaptive-headroom-window}: how long (default 30s)
 * @param upstreamDisableKeepAlives {@code -upstream-disable-keep-alives}: a fresh upstream connection per request
 */
public record AdmissionConfig(List<String> limits, boolean limitAll, int concurrency, int globalConcurrency,
                              Duration queueTimeout, int queueDepth, Duration queueComments,
                              Duration releaseCooldown, Duration cancelCooldown, Duration failureHold,
                              boolean adaptiveHeadroom, Duration adaptiveHeadroomWindow,
                              boolean upstreamDisableKeepAlives) {

    public AdmissionConfig {
        limits = List.copyOf(limits);
        if (concurrency < 1) {
            throw new ConfigException("-concurrency must be >= 1, got " + concurrency);
        }
        if (globalConcurrency < 0) {
            throw new ConfigException("-global-concurrency must be >= 0, got " + globalConcurrency);
        }
        if (queueDepth < 0) {
            throw new ConfigException("-queue-depth must be >= 0, got " + queueDepth);
        }
        DurationFlags.nonNegative("-queue-timeout", queueTimeout);
        DurationFlags.nonNegative("-queue-comments", queueComments);
        DurationFlags.nonNegative("-release-cooldown", releaseCooldown);
        DurationFlags.nonNegative("-cancel-cooldown", cancelCooldown);
        DurationFlags.nonNegative("-failure-hold", failureHold);
        DurationFlags.nonNegative("-adaptive-headroom-window", adaptiveHeadroomWindow);
        try {
            RouteTable.of(limits);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        if (adaptiveHeadroom && adaptiveHeadroomWindow.isZero()) {
            throw new ConfigException("-adaptive-headroom-window must be > 0 when -adaptive-headroom is on");
        }
    }

    /** The admission flags' defaults, as {@code -h} shows them. */
    public static AdmissionConfig defaults() {
        return new AdmissionConfig(List.of(), false, 4, 0, Duration.ofSeconds(30), 0, Duration.ZERO,
                Duration.ofMillis(200), Duration.ofMillis(200), Duration.ofSeconds(2), false, Duration.ofSeconds(30), false);
    }
}
