package shaper.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static shaper.breaker.Breakers.allowed;
import static shaper.breaker.Breakers.fail;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The slot hold after an upstream failure: exponential, capped, floored by Retry-After. */
class PhantomPenaltyTest {
    private final ManualTicker clock = new ManualTicker();
    private final BreakerConfig config = new BreakerConfig(true, 100, Duration.ofSeconds(30), Duration.ofSeconds(10),
            Duration.ofSeconds(120), Duration.ofSeconds(2), Duration.ofSeconds(60));
    private final CircuitBreaker breaker = CircuitBreaker.of(config, clock);

    @Test
    void penaltyIsBaseBeforeAnyFailure() {
        assertEquals(Duration.ofSeconds(2), breaker.penalty());
    }

    @Test
    void penaltyDoublesWithConsecutiveFailuresUpToMax() {
        long[] expectedSeconds = {2, 4, 8, 16, 32, 60, 60};
        for (long expected : expectedSeconds) {
            fail(breaker);
            assertEquals(Duration.ofSeconds(expected), breaker.penalty());
        }
        assertEquals(Duration.ofSeconds(60), breaker.snapshot().penalty());
    }

    @Test
    void retryAfterIsFloorOfPenaltyAndCappedAtMax() {
        breaker.recordFailure(allowed(breaker), Duration.ofSeconds(7));
        assertEquals(Duration.ofSeconds(7), breaker.penalty());
        breaker.recordFailure(allowed(breaker), Duration.ZERO);
        assertEquals(Duration.ofSeconds(7), breaker.penalty(), "a failure without Retry-After keeps the last one");
        fail(breaker);
        fail(breaker);
        assertEquals(Duration.ofSeconds(16), breaker.penalty(), "growth passes the floor");
        breaker.recordFailure(allowed(breaker), Duration.ofMinutes(10));
        assertEquals(Duration.ofSeconds(60), breaker.penalty());
    }

    @Test
    void successResetsConsecutiveFailuresAndRetryAfter() {
        fail(breaker);
        fail(breaker);
        breaker.recordFailure(allowed(breaker), Duration.ofSeconds(30));
        assertEquals(Duration.ofSeconds(30), breaker.penalty());

        breaker.recordSuccess(allowed(breaker));

        assertEquals(0, breaker.snapshot().consecutiveFailures());
        assertEquals(Duration.ofSeconds(2), breaker.penalty());
        fail(breaker);
        assertEquals(Duration.ofSeconds(2), breaker.penalty());
    }

    @Test
    void penaltyGrowthNeverOverflows() {
        BreakerConfig huge = new BreakerConfig(true, 1, Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofDays(365), Duration.ofDays(365 * 200));
        for (int consecutive : new int[] {10, 62, 63, 64, 1_000, Integer.MAX_VALUE}) {
            assertEquals(Duration.ofDays(365 * 200), huge.penaltyAfter(consecutive, Duration.ZERO), "consecutive " + consecutive);
        }
    }

    @Test
    void maxPenaltyBelowPenaltyIsRaised() {
        BreakerConfig raised = new BreakerConfig(true, 5, Duration.ofSeconds(30), Duration.ofSeconds(10),
                Duration.ofSeconds(120), Duration.ofSeconds(5), Duration.ofSeconds(1));
        assertEquals(Duration.ofSeconds(5), raised.maxPenalty());
        assertEquals(Duration.ofSeconds(5), raised.penaltyAfter(4, Duration.ZERO));
    }
}
