package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final Duration MIN = Duration.ofMillis(500);
    private static final Duration MAX = Duration.ofSeconds(30);

    /** A generator that always returns {@code value} from nextDouble: pins the jitter to an edge. */
    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    @Test
    void stepDoublesFromWaitMinWithoutJitterAtTheMidpoint() {
        Backoff b = new Backoff(MIN, MAX, Duration.ZERO, fixed(0.5));
        assertEquals(Duration.ofMillis(500), b.step(1));
        assertEquals(Duration.ofMillis(1000), b.step(2));
        assertEquals(Duration.ofMillis(2000), b.step(3));
        assertEquals(Duration.ofMillis(16000), b.step(6));
        assertEquals(MAX, b.step(7));
        assertEquals(MAX, b.step(1000));
    }

    @Test
    void jitterIsPlusMinusTwentyFivePercentClampedToMinAndMax() {
        Backoff low = new Backoff(MIN, MAX, Duration.ZERO, fixed(0.0));
        Backoff high = new Backoff(MIN, MAX, Duration.ZERO, fixed(Math.nextDown(1.0)));
        assertEquals(MIN, low.step(1), "-25% of the first step is clamped up to waitMin");
        assertEquals(Duration.ofMillis(1500), low.step(3), "-25% of 2s");
        assertEquals(625, Math.round(high.step(1).toNanos() / 1e6), "+25% of the first step");
        assertEquals(MAX, high.step(7), "+25% past the cap is clamped down to waitMax");
        assertEquals(Duration.ofMillis(22500), low.step(7));
    }

    @Test
    void seededJitterStaysInBoundsAndVaries() {
        Backoff b = new Backoff(MIN, MAX, Duration.ZERO, new Random(42));
        Set<Duration> seen = new HashSet<>();
        for (int n = 1; n <= 10; n++) {
            long base = Math.min(MIN.toMillis() << (n - 1), MAX.toMillis());
            for (int i = 0; i < 50; i++) {
                Duration d = b.step(n);
                assertTrue(d.compareTo(MIN) >= 0 && d.compareTo(MAX) <= 0, d.toString());
                assertTrue(d.toMillis() >= base * 0.75 - 1 && d.toMillis() <= base * 1.25 + 1, n + ": " + d);
                seen.add(d);
            }
        }
        assertTrue(seen.size() > 100, "jitter should spread the waits");
        assertEquals(new Backoff(MIN, MAX, Duration.ZERO, new Random(7)).step(4),
                new Backoff(MIN, MAX, Duration.ZERO, new Random(7)).step(4), "same seed, same wait");
    }

    @Test
    void largerRetryAfterReplacesTheStepAndMayExceedWaitMax() {
        Backoff b = new Backoff(MIN, MAX, Duration.ZERO, fixed(0.5));
        assertEquals(Duration.ofSeconds(90), b.waitBefore(1, Optional.of(Duration.ofSeconds(90))));
        assertEquals(Duration.ofMillis(2000), b.waitBefore(3, Optional.of(Duration.ofMillis(100))), "a shorter Retry-After does not shorten the backoff");
        assertEquals(Duration.ofMillis(500), b.waitBefore(1, Optional.empty()));
    }

    @Test
    void minDelayIsAFloorAppliedLast() {
        Backoff b = new Backoff(MIN, MAX, Duration.ofSeconds(5), fixed(0.5));
        assertEquals(Duration.ofSeconds(5), b.waitBefore(1, Optional.empty()));
        assertEquals(Duration.ofSeconds(5), b.waitBefore(1, Optional.of(Duration.ofSeconds(2))));
        assertEquals(Duration.ofSeconds(8), b.waitBefore(5, Optional.empty()));
    }

    @Test
    void zeroWaitMinGivesZeroSteps() {
        Backoff b = new Backoff(Duration.ZERO, MAX, Duration.ZERO, new Random(1));
        assertEquals(Duration.ZERO, b.step(5));
    }

    @Test
    void hugeWaitsDoNotOverflow() {
        Backoff b = new Backoff(Duration.ofDays(365), Duration.ofDays(3650), Duration.ZERO, fixed(0.5));
        assertEquals(Duration.ofDays(3650), b.step(200));
        assertNotEquals(Duration.ZERO, b.step(2));
    }

    @Test
    void retryNumbersStartAtOne() {
        Backoff b = new Backoff(MIN, MAX, Duration.ZERO, new Random(1));
        assertThrows(IllegalArgumentException.class, () -> b.step(0));
    }
}
