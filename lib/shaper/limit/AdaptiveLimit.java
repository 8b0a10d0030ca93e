package shaper.limit;

/**
 * AIMD (additive increase, multiplicative decrease) over one limiter's concurrency, between a
 * floor and the configured ceiling. Not thread-safe: guarded by the owning limiter's lock.
 *
 * <pre>
 *   every limit lives in an epoch; a sample counts only if its slot was granted in the current one
 *   (a request admitted under an older limit says nothing about this one)
 *
 *   OVERLOADED sample, or first byte &gt; max(2 × floor, floor + 50ms) ──▶ limit = max(min, ⌊0.9 × limit⌋, at most limit - 1)
 *   SERVED sample while the limit binds (waiters, or no idle slot) ──▶ clean++
 *        clean == limit (a full window at this limit) ──▶ limit + 1 (up to the ceiling)
 *   every change starts a new epoch, so a decrease happens at most once per window
 * </pre>
 *
 * <p>Why these constants: a decrease of 10 % per window (Netflix concurrency-limits' AIMD default)
 * costs little goodput when the limit only overshot by one, while one decrease per window still
 * halves a limit that is far too high within seven windows (a window ends at the first signal, so
 * those windows are short). Increasing by one per window of {@code limit} clean completions is TCP's
 * congestion avoidance: one more request in flight per round trip. A first byte twice as late as the
 * recent floor means requests wait in the upstream as long as they are served, the point where more
 * concurrency adds latency and no throughput (Little's law; the same reading as Envoy's gradient
 * against its minimum RTT); the 50ms margin keeps scheduling jitter on a fast upstream from passing
 * for queueing.
 */
final class AdaptiveLimit {
    static final double BACKOFF = 0.9;

    private final int configuredMin;
    private int min;
    private int max;
    private final FirstByteJudge firstByte;
    private int limit;
    private long epoch;
    private int clean;

    /** Starts at the ceiling: nothing changes until the upstream says something. */
    AdaptiveLimit(int min, int max, long now) {
        this.configuredMin = min;
        this.min = Math.min(min, max);
        this.max = max;
        this.limit = max;
        this.firstByte = new FirstByteJudge(now);
    }

    /**
     * The configured ceiling becomes {@code max} (a reload): a limit at the old ceiling (nothing had
     * lowered it) follows it up; any limit stays at most the new one.
     */
    void ceiling(int newMax) {
        int to = limit == max ? newMax : Math.min(limit, newMax);
        max = newMax;
        min = Math.min(configuredMin, newMax);
        if (to != limit) {
            move(to);
        }
    }

    int limit() {
        return limit;
    }

    long epoch() {
        return epoch;
    }

    /**
     * Judges one sample.
     *
     * @param grantEpoch the epoch in which the sample's slot was granted
     * @param binding    the limit was binding when the sample came in: requests waited, or no slot was idle
     * @return the new limit's reason, or {@code null} when the limit did not move
     */
    String onSample(long grantEpoch, boolean binding, LoadSample s, long now) {
        if (s.kind() == LoadSample.Kind.UNJUDGED) {
            return null;
        }
        String slow = firstByte.slow(s, now);
        if (grantEpoch != epoch) {
            return null;
        }
        if (s.kind() == LoadSample.Kind.OVERLOADED) {
            return decrease(s.cause());
        }
        if (slow != null) {
            return decrease(slow);
        }
        if (!binding || ++clean < limit) {
            return null;
        }
        if (limit == max) {
            clean = 0;
            return null;
        }
        String reason = clean + " clean completions at " + limit;
        move(limit + 1);
        return reason;
    }

    private String decrease(String reason) {
        int to = Math.max(min, Math.min(limit - 1, (int) Math.floor(limit * BACKOFF)));
        if (to >= limit) {
            clean = 0;
            return null;
        }
        move(to);
        return reason;
    }

    private void move(int to) {
        limit = to;
        epoch++;
        clean = 0;
    }
}
