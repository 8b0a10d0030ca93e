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
 * latency floor, and tells the provider's log when a release moved the limit. Thread-safe.
 */
final class SharedAdaptive {
    private final String limiter;
    private final AdaptiveConcurrency settings;
    private final LongSupplier nanoTime;
    // Guarded by itself.
    private final FirstByteJudge firstByte;

    SharedAdaptive(String limiter, AdaptiveConcurrency settings, LongSupplier nanoTime) {
        this.limiter = limiter;
        this.settings = settings;
        this.nanoTime = nanoTime;
        this.firstByte = new FirstByteJudge(nanoTime.getAsLong());
    }

    /** {@code -concurrency-min}, as the scripts take it. */
    int min() {
        return settings.min();
    }

    SharedSample judge(LoadSample s) {
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
        settings.onChange().accept(new LimitChange(limiter, m.from(), m.to(), m.reason()));
    }
}
