package shaper.limit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link LimiterSnapshot} with what a person needs to see why a slot is not serving anyone, and
 * who waits: taken at one instant, for the TUI and metrics.
 *
 * @param counts        the limiter's counts
 * @param held          slots of {@code counts.inUse()} whose exchange ended and that are held on
 *                      (failure hold, phantom penalty, cancel cooldown)
 * @param queuedByClass waiters per priority class the limiter has seen, in first-seen order; empty when
 *                      the limiter does not keep classes
 */
public record LimiterView(LimiterSnapshot counts, int held, Map<String, Integer> queuedByClass) {
    public LimiterView {
        Objects.requireNonNull(counts, "counts");
        queuedByClass = Collections.unmodifiableMap(new LinkedHashMap<>(queuedByClass));
        if (held < 0 || held > counts.inUse()) {
            throw new IllegalArgumentException("held: " + held + " (expected: 0.." + counts.inUse() + ")");
        }
    }

    /** Slots serving an exchange now: in use and not held. */
    public int active() {
        return counts.inUse() - held;
    }

    /** Slots in the release cooldown. */
    public int cooling() {
        return counts.cooling();
    }
}
