package shaper.server;

import java.util.List;
import java.util.Optional;

import shaper.admission.LimiterFactory;
import shaper.admission.ProviderLimiters;
import shaper.limit.FifoLimiter;
import shaper.limit.Limiter;

/**
 * The limiter factory of a reload: a limiter the provider already has (same key: the route class,
 * {@code default}, {@code global}, {@code large-request gate}) is kept, with its waiters and granted
 * slots, and reconfigured in place when the reload commits; only a new key makes a new limiter. A
 * cluster-wide limiter is kept as it is: its limit lives in Redis, shared with the other instances.
 */
final class LiveLimiters {
    private LiveLimiters() {
    }

    static LimiterFactory keeping(ProviderLimiters running, LimiterFactory fresh, List<Runnable> commit) {
        return (key, name, limit, cooldown, headroom) -> {
            Optional<Limiter> kept = running.limiter(key);
            if (kept.isEmpty()) {
                return fresh.create(key, name, limit, cooldown, headroom);
            }
            if (kept.get() instanceof FifoLimiter f) {
                commit.add(() -> f.reconfigure(limit, cooldown, headroom));
            }
            return kept.get();
        };
    }
}
