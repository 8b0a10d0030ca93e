package shaper.ratelimit;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One provider's newest rate-limit state: per kind the newest reading (a reading older than the one
 * held never replaces it: responses finish out of order), and the newest {@code retry-after} instant.
 */
public final class UpstreamRateLimits {
    /** An immutable snapshot. */
    public record State(Map<RateLimitKind, RateLimitReading> readings, Instant retryUntil) {
        public static final State EMPTY = new State(Map.of(), null);

        public State {
            readings = Map.copyOf(readings);
        }
    }

    private final AtomicReference<State> state = new AtomicReference<>(State.EMPTY);

    /** Folds in what one response stated. */
    public void observe(RateLimitHeaders.Observation o) {
        if (o.empty()) {
            return;
        }
        state.updateAndGet(s -> {
            Map<RateLimitKind, RateLimitReading> next = new EnumMap<>(RateLimitKind.class);
            next.putAll(s.readings());
            o.readings().forEach((kind, r) -> next.merge(kind, r,
                    (held, fresh) -> fresh.observedAt().isBefore(held.observedAt()) ? held : held.then(fresh)));
            Instant until = s.retryUntil();
            if (o.retryUntil().isPresent() && (until == null || o.retryUntil().get().isAfter(until))) {
                until = o.retryUntil().get();
            }
            return new State(next, until);
        });
    }

    public State state() {
        return state.get();
    }
}
