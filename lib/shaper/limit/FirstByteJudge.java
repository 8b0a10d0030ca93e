package shaper.limit;

import shaper.config.GoDuration;

/**
 * The latency half of an adaptive limit's signal: a served answer whose first byte came well after
 * the recent floor ({@link LatencyFloor}) means requests wait in the upstream. "Well after" is
 * {@code max(2 × floor, floor + 50ms)}: twice the floor is the point where requests queue in the
 * upstream as long as they are served (Little's law; the same reading as Envoy's gradient against its
 * minimum RTT), and the 50ms margin keeps scheduling jitter on a fast upstream from passing for queueing.
 *
 * <p>Shared by the in-process limit ({@link AdaptiveLimit}) and the cluster-wide one, whose floor
 * stays per instance (each instance sees its own network path). Not thread-safe: guarded by its owner.
 */
public final class FirstByteJudge {
    static final long SLOW_MARGIN_NANOS = 50_000_000L;

    private final LatencyFloor floor;

    /** @param now the clock's reading ({@link TimeSource#nanoTime()}) */
    public FirstByteJudge(long now) {
        this.floor = new LatencyFloor(now);
    }

    /**
     * Judges a served sample against the floor, then lets it lower the floor. Only served answers
     * tell how long serving takes: a 429 comes back at once and would pull the floor down to nothing.
     *
     * @return why the first byte counts as slow ({@code "first byte 312ms, floor 101ms"}), or {@code null}
     */
    public String slow(LoadSample s, long now) {
        if (s.kind() != LoadSample.Kind.SERVED || s.ttfbNanos() < 0) {
            return null;
        }
        String slow = null;
        long f = floor.floor(s.requestBytes(), now);
        if (f >= 0 && s.ttfbNanos() > Math.max(2 * f, f + SLOW_MARGIN_NANOS)) {
            slow = "first byte " + millis(s.ttfbNanos()) + ", floor " + millis(f);
        }
        floor.observe(s.requestBytes(), s.ttfbNanos(), now);
        return slow;
    }

    private static String millis(long nanos) {
        return GoDuration.format(java.time.Duration.ofMillis(nanos / 1_000_000));
    }
}
