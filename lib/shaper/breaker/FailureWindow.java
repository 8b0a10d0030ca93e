package shaper.breaker;

import java.util.Arrays;

/**
 * Immutable, time-ordered failure timestamps of the sliding window. The breaker opens once the
 * window holds {@code threshold} entries, so a window never grows past the threshold.
 */
final class FailureWindow {
    static final FailureWindow EMPTY = new FailureWindow(new long[0]);

    /** Ticker values, oldest first; never mutated after construction. */
    private final long[] times;

    private FailureWindow(long[] times) {
        this.times = times;
    }

    /** The entries still inside the window at {@code now}: an entry {@code window} old or older is dropped. */
    FailureWindow trim(long now, long windowNanos) {
        int firstKept = 0;
        while (firstKept < times.length && now - times[firstKept] >= windowNanos) {
            firstKept++;
        }
        return firstKept == 0 ? this : new FailureWindow(Arrays.copyOfRange(times, firstKept, times.length));
    }

    /** This window trimmed at {@code now}, plus a failure at {@code now}. */
    FailureWindow add(long now, long windowNanos) {
        long[] kept = trim(now, windowNanos).times;
        long[] next = Arrays.copyOf(kept, kept.length + 1);
        next[kept.length] = now;
        return new FailureWindow(next);
    }

    int size() {
        return times.length;
    }
}
