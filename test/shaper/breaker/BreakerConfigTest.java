package shaper.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.config.ConfigException;

class BreakerConfigTest {
    private static final Duration S = Duration.ofSeconds(1);

    @Test
    void defaultsMatchTheFlagTable() {
        BreakerConfig d = BreakerConfig.defaults();
        assertTrue(d.enabled());
        assertEquals(5, d.threshold());
        assertEquals(Duration.ofSeconds(30), d.window());
        assertEquals(Duration.ofSeconds(10), d.openTimeout());
        assertEquals(Duration.ofSeconds(120), d.maxOpenTimeout());
        assertEquals(Duration.ofSeconds(2), d.penalty());
        assertEquals(Duration.ofSeconds(60), d.maxPenalty());
    }

    @Test
    void enabledBreakerRejectsNonPositiveValuesWithFlagMessages() {
        assertMessage("-cb-threshold must be > 0, got 0", () -> new BreakerConfig(true, 0, S, S, S, S, S));
        assertMessage("-cb-threshold must be > 0, got -3", () -> new BreakerConfig(true, -3, S, S, S, S, S));
        assertMessage("-cb-window must be > 0, got 0s", () -> new BreakerConfig(true, 1, Duration.ZERO, S, S, S, S));
        assertMessage("-cb-open-timeout must be > 0, got -2s", () -> new BreakerConfig(true, 1, S, S.multipliedBy(-2), S, S, S));
        assertMessage("-cb-max-open-timeout must be > 0, got 0s", () -> new BreakerConfig(true, 1, S, S, Duration.ZERO, S, S));
        assertMessage("-cb-penalty must be > 0, got 0s", () -> new BreakerConfig(true, 1, S, S, S, Duration.ZERO, S));
        assertMessage("-cb-max-penalty must be > 0, got -500ms", () -> new BreakerConfig(true, 1, S, S, S, S, Duration.ofMillis(-500)));
    }

    @Test
    void disabledBreakerAcceptsZeroButNotNegativeDurations() {
        BreakerConfig off = new BreakerConfig(false, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
        assertEquals(Duration.ZERO, off.penalty());
        assertMessage("-cb-penalty must be >= 0, got -1s", () -> new BreakerConfig(false, 5, S, S, S, S.negated(), S));
    }

    @Test
    void openTimeoutDoublesPerBackoffAndIsCapped() {
        BreakerConfig d = BreakerConfig.defaults();
        assertEquals(Duration.ofSeconds(10), d.openTimeoutAfter(0));
        assertEquals(Duration.ofSeconds(80), d.openTimeoutAfter(3));
        assertEquals(Duration.ofSeconds(120), d.openTimeoutAfter(4));
        assertEquals(Duration.ofSeconds(120), d.openTimeoutAfter(63));
        assertEquals(Duration.ofSeconds(120), d.openTimeoutAfter(Integer.MAX_VALUE));
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable construct) {
        assertEquals(expected, assertThrows(ConfigException.class, construct).getMessage());
    }
}
