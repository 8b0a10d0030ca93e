package shaper.limit;

import java.time.Duration;
import java.util.Objects;

/**
 * An immutable view of one limiter, for the TUI and metrics.
 *
 * @param name the limiter's name
 * @param limit the configured concurrency
 * @param effectiveLimit {@code limit} minus the slot adaptive headroom withholds (or is about to absorb); at least 1
 * @param inUse slots granted and not yet released, holds included (a granted slot not yet claimed counts); right
 *              after a reload lowered the limit, in use and cooling may exceed it until enough slots came back
 * @param cooling released slots waiting out the release cooldown
 * @param idle slots free right now; non-zero only when nobody waits
 * @param waiters requests queued for a slot
 * @param oldestWaiterAge how long the longest waiter has waited; {@link Duration#ZERO} when none waits
 */
public record LimiterSnapshot(String name, int limit, int effectiveLimit, int inUse, int cooling, int idle, int waiters,
        Duration oldestWaiterAge) {

    public LimiterSnapshot {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(oldestWaiterAge, "oldestWaiterAge");
        if (limit < 1 || effectiveLimit < 1 || effectiveLimit > limit) {
            throw new IllegalArgumentException("effectiveLimit: " + effectiveLimit + " (expected: 1.." + limit + ")");
        }
        if (inUse < 0 || cooling < 0 || idle < 0 || waiters < 0 || idle > limit) {
            throw new IllegalArgumentException("slot counts out of range: inUse=" + inUse + " cooling=" + cooling
                    + " idle=" + idle + " waiters=" + waiters + " (expected: >= 0, idle <= " + limit + ")");
        }
    }
}
