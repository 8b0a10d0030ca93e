package shaper.admission;

import java.time.Duration;
import java.util.function.BiConsumer;

import shaper.limit.AdaptiveConcurrency;
import shaper.limit.FifoLimiter;
import shaper.limit.LimitChange;
import shaper.limit.Limiter;
import shaper.limit.TimeSource;

/**
 * Builds the limiters of one provider. The in-process factory makes {@link FifoLimiter}s; a
 * cluster backend makes limiters whose slots are shared with other instances. The key names the
 * limiter the same way on every instance, whatever the provider's display name.
 */
@FunctionalInterface
public interface LimiterFactory {

    /**
     * @param key             stable identity of the limiter within its provider: the route class key,
     *                        {@code default}, {@code global} or {@code large-request gate}
     * @param name            display name for snapshots and errors ({@code "<provider> <key>"})
     * @param limit           concurrency, at least 1
     * @param releaseCooldown delay before a released slot is reusable; zero = at once
     * @param headroomWindow  adaptive-headroom window; zero = off
     */
    Limiter create(String key, String name, int limit, Duration releaseCooldown, Duration headroomWindow);

    /** {@link FifoLimiter}s on {@code time}: the default, one process's own limits. */
    static LimiterFactory inProcess(TimeSource time) {
        return (key, name, limit, cooldown, headroom) -> new FifoLimiter(name, limit, cooldown, headroom, time);
    }

    /**
     * {@link FifoLimiter}s on {@code time} whose configured limit is a ceiling ({@code -adaptive-concurrency}).
     *
     * @param min      {@code -concurrency-min}
     * @param onChange told of every move with the limiter's key, outside the limiter's lock
     */
    static LimiterFactory adaptive(TimeSource time, int min, BiConsumer<String, LimitChange> onChange) {
        return (key, name, limit, cooldown, headroom) -> new FifoLimiter(name, limit, cooldown, headroom, time,
                new AdaptiveConcurrency(min, change -> onChange.accept(key, change)));
    }
}
