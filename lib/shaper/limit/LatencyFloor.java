package shaper.limit;

import java.util.Arrays;

/**
 * The recent minimum of the upstream's time to first byte, kept per request-size class (body length
 * within a factor of two, from 4 KiB up), because prefill time grows with the prompt: a 200 KiB prompt
 * is slow on an idle upstream too, and must not be judged against the floor of one-line requests.
 *
 * <p>"Recent" is two windows: the minimum of the current and the previous {@link #WINDOW}, rotated
 * as time passes, so the floor follows an upstream that got lastingly slower within one to two
 * windows, and a faster one at once. Not thread-safe: guarded by the owning limiter's lock.
 */
final class LatencyFloor {
    /** One generation of the floor. */
    static final long WINDOW = 30_000_000_000L;
    private static final int CLASSES = 24;
    private static final long NONE = Long.MAX_VALUE;

    private final long[] current = new long[CLASSES];
    private final long[] previous = new long[CLASSES];
    private long rotatedAt;

    LatencyFloor(long now) {
        Arrays.fill(current, NONE);
        Arrays.fill(previous, NONE);
        rotatedAt = now;
    }

    /** The floor for a request of {@code requestBytes}, or -1 when nothing recent is known. */
    long floor(long requestBytes, long now) {
        rotate(now);
        int c = sizeClass(requestBytes);
        long f = Math.min(current[c], previous[c]);
        return f == NONE ? -1 : f;
    }

    void observe(long requestBytes, long ttfbNanos, long now) {
        rotate(now);
        int c = sizeClass(requestBytes);
        current[c] = Math.min(current[c], ttfbNanos);
    }

    private void rotate(long now) {
        long age = now - rotatedAt;
        if (age < WINDOW) {
            return;
        }
        if (age < 2 * WINDOW) {
            System.arraycopy(current, 0, previous, 0, CLASSES);
        } else {
            Arrays.fill(previous, NONE);
        }
        Arrays.fill(current, NONE);
        rotatedAt = now;
    }

    /** 0 below 4 KiB (and unknown), then one class per doubling. */
    static int sizeClass(long requestBytes) {
        if (requestBytes < 4096) {
            return 0;
        }
        return Math.min(CLASSES - 1, 64 - Long.numberOfLeadingZeros(requestBytes >> 12));
    }
}
