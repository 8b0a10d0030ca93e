package shaper.retry;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Retry waits. The step before retry {@code n} (1 = the first retry) is {@code waitMin × 2^(n−1)},
 * capped at {@code waitMax}, jittered by ±25% and clamped back into {@code [waitMin, waitMax]}. A larger
 * {@code Retry-After} replaces the step (it may exceed {@code waitMax}; the caller's deadline bounds it),
 * and {@code minDelay} is a floor applied last.
 *
 * <p>Thread-safe when the injected {@link RandomGenerator} is (e.g. {@code ThreadLocalRandom.current()}
 * or {@code java.util.Random}); tests pass a seeded generator.
 */
public final class Backoff {
    /** Relative jitter either side of the exponential step. */
    static final double JITTER = 0.25;

    private final Duration waitMin;
    private final Duration waitMax;
    private final Duration minDelay;
    private final RandomGenerator random;

    public Backoff(Duration waitMin, Duration waitMax, Duration minDelay, RandomGenerator random) {
        this.waitMin = Objects.requireNonNull(waitMin, "waitMin");
        this.waitMax = Objects.requireNonNull(waitMax, "waitMax");
        this.minDelay = Objects.requireNonNull(minDelay, "minDelay");
        this.random = Objects.requireNonNull(random, "random");
        if (waitMin.isNegative() || waitMax.compareTo(waitMin) < 0 || minDelay.isNegative()) {
            throw new IllegalArgumentException("waits: min " + waitMin + ", max " + waitMax + ", floor " + minDelay
                    + " (expected: 0 <= min <= max, floor >= 0)");
        }
    }

    /** The backoff of a validated retry configuration. */
    public static Backoff of(RetryConfig config, RandomGenerator random) {
        return new Backoff(config.waitMin(), config.waitMax(), config.minDelay(), random);
    }

    /** The jittered exponential step before retry {@code retryNumber} (≥ 1), without Retry-After or floor. */
    public Duration step(int retryNumber) {
        if (retryNumber < 1) {
            throw new IllegalArgumentException("retryNumber: " + retryNumber + " (expected: >= 1)");
        }
        long min = waitMin.toNanos();
        long max = waitMax.toNanos();
        long base = exponential(min, max, retryNumber - 1);
        double factor = 1 - JITTER + 2 * JITTER * random.nextDouble();
        long jittered = (long) Math.min((double) Long.MAX_VALUE, base * factor);
        return Duration.ofNanos(Math.clamp(jittered, min, max));
    }

    /**
     * The wait before retry {@code retryNumber}: the {@link #step}, replaced by {@code retryAfter} when
     * that is longer, then raised to the {@code minDelay} floor.
     */
    public Duration waitBefore(int retryNumber, Optional<Duration> retryAfter) {
        Duration wait = step(retryNumber);
        if (retryAfter.isPresent() && retryAfter.get().compareTo(wait) > 0) {
            wait = retryAfter.get();
        }
        return floor(wait);
    }

    /** {@code wait} raised to the {@code minDelay} floor. */
    public Duration floor(Duration wait) {
        return wait.compareTo(minDelay) < 0 ? minDelay : wait;
    }

    /** {@code min × 2^shift} capped at {@code max}, without overflowing. */
    private static long exponential(long min, long max, int shift) {
        if (min == 0) {
            return 0;
        }
        if (shift >= 62 || min > (max >> shift)) {
            return max;
        }
        return Math.min(min << shift, max);
    }
}
