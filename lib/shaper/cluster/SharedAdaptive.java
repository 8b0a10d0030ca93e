package shaper.cluster;

import java.util.function.LongSupplier;

import shaper.limit.AdaptiveConcurrency;
import shaper.limit.FirstByteJudge;
import shaper.limit.LimitChange;
import shaper.limit.LoadSample;

/**
 * This instance's side of one {@link ClusterLimiter}'s shared adaptive limit ({@link SharedLimitLua}
 * keeps the limit itself in Redis): it turns an exchange's {@link LoadSample} into the
 * {@link SharedSample} sent with the release, judging the first byte against this instance's own
 * latency floor, and tells the provider's log when a release moved the limit. A fixed limit has
 * one that judges nothing ({@link #of} with no settings). Thread-safe.
 */
final class SharedAdaptive {
    private final String limiter;
    /** {@code null} for a fixed limit. */
    private final AdaptiveConcurrency settings;
    private final LongSupplier nanoTime;
    // Guarded by itself.
    private final FirstByteJudge firstByte;

    private SharedAdaptive(String limiter, AdaptiveConcurrency settings, LongSupplier nanoTime) {
        this.limiter = limiter;
        this.settings = settings;
        this.nanoTime = nanoTime;
        this.firstByte = new FirstByteJudge(nanoTime.getAsLong());
    }

    /** @param settings {@code null} for a fixed limit */
    static SharedAdaptive of(String limiter, AdaptiveConcurrency settings, LongSupplier nanoTime) {
        return new SharedAdaptive(limiter, settings, nanoTime);
    }

    SharedSample judge(LoadSample s) {
        if (settings == null) {
            return SharedSample.NONE;
        }
        return switch (s.kind()) {
            case UNJUDGED -> SharedSample.NONE;
            case OVERLOADED -> SharedSample.over(s.cause());
            case SERVED -> {
                String slow;
                synchronized (firstByte) {
                    slow = firstByte.slow(s, nanoTime.getAsLong());
                }
                yield slow == null ? SharedSample.ok() : SharedSample.over(slow);
            }
        };
    }

    /** A release of this instance moved the shared limit. */
    void moved(LeaseCalls.LimitMove m) {
        if (settings != null) {
            settings.onChange().accept(new LimitChange(limiter, m.from(), m.to(), m.reason()));
        }
    }
}
