package shaper.breaker;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;

/** Shared steps of the breaker tests. */
final class Breakers {
    private Breakers() {
    }

    /** Defaults with small, distinct numbers: threshold 3, window 30s, open 10s up to 40s, penalty 2s up to 60s. */
    static BreakerConfig config() {
        return new BreakerConfig(true, 3, Duration.ofSeconds(30), Duration.ofSeconds(10),
                Duration.ofSeconds(40), Duration.ofSeconds(2), Duration.ofSeconds(60));
    }

    static Admission.Allowed allowed(CircuitBreaker breaker) {
        return assertInstanceOf(Admission.Allowed.class, breaker.allow());
    }

    static void fail(CircuitBreaker breaker) {
        breaker.recordFailure(allowed(breaker), Duration.ZERO);
    }

    /** Fails {@code threshold} requests in a row so the breaker opens now. */
    static void trip(CircuitBreaker breaker) {
        for (int i = 0; i < breaker.config().threshold(); i++) {
            fail(breaker);
        }
    }
}
