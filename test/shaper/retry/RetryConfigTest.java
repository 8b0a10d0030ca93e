package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;

import shaper.config.ConfigException;

class RetryConfigTest {
    @Test
    void defaultsMatchTheFlagTable() {
        RetryConfig c = RetryConfig.DEFAULTS;
        assertEquals(-1, c.retry());
        assertEquals(Duration.ofMillis(500), c.waitMin());
        assertEquals(Duration.ofSeconds(30), c.waitMax());
        assertEquals(Duration.ofSeconds(1), c.minDelay());
        assertTrue(c.skip429());
        assertEquals(5, c.maxBodyMb());
        assertEquals(5L * 1024 * 1024, c.maxBodyBytes());
        assertEquals(Set.of(422, 429), c.retryStatus());
        assertEquals(Duration.ofMinutes(5), c.deadline());
        assertEquals(Duration.ofSeconds(10), c.keepalive());
        assertEquals(Duration.ofMinutes(10), c.upstreamTimeout());
        assertTrue(c.inspectSse());
        assertTrue(c.stripStaleReasoning());
        assertTrue(c.enabled());
    }

    @Test
    void retryZeroDisablesRetries() {
        assertFalse(RetryConfig.builder().retry(0).build().enabled());
    }

    @Test
    void negativeValuesAreRejectedNamingTheFlag() {
        assertMessage("-retry must be >= -1, got -2", RetryConfig.builder().retry(-2));
        assertMessage("-retry-wait-min must be >= 0, got -1s", RetryConfig.builder().waitMin(Duration.ofSeconds(-1)));
        assertMessage("-retry-min-delay must be >= 0, got -200ms", RetryConfig.builder().minDelay(Duration.ofMillis(-200)));
        assertMessage("-retry-keepalive must be >= 0, got -1s", RetryConfig.builder().keepalive(Duration.ofSeconds(-1)));
        assertMessage("-retry-max-body-mb must be >= 0, got -1", RetryConfig.builder().maxBodyMb(-1));
        assertMessage("-retry-deadline must be > 0, got 0s", RetryConfig.builder().deadline(Duration.ZERO));
        assertMessage("-upstream-timeout must be > 0, got 0s", RetryConfig.builder().upstreamTimeout(Duration.ZERO));
    }

    @Test
    void waitMaxBelowWaitMinIsRejected() {
        assertMessage("-retry-wait-max must be >= -retry-wait-min (2s), got 1s",
                RetryConfig.builder().waitMin(Duration.ofSeconds(2)).waitMax(Duration.ofSeconds(1)));
    }

    @Test
    void zeroKeepaliveAndZeroWaitsAreAllowed() {
        RetryConfig c = RetryConfig.builder().keepalive(Duration.ZERO).waitMin(Duration.ZERO)
                .minDelay(Duration.ZERO).maxBodyMb(0).build();
        assertEquals(Duration.ZERO, c.keepalive());
    }

    @Test
    void retryStatusListParsesAndValidates() {
        assertEquals(Set.of(422, 429, 503), RetryConfig.parseStatusList(" 429,422 ,503"));
        assertEquals(Set.of(), RetryConfig.parseStatusList(""));
        assertThrows(ConfigException.class, () -> RetryConfig.parseStatusList("422,abc"));
        ConfigException e = assertThrows(ConfigException.class, () -> RetryConfig.parseStatusList("42"));
        assertEquals("-retry-status must list HTTP statuses 100-599, got 42", e.getMessage());
        assertThrows(ConfigException.class, () -> RetryConfig.builder().retryStatus(Set.of(600)).build());
    }

    @Test
    void retryStatusIsCopiedAndImmutable() {
        RetryConfig c = RetryConfig.builder().retryStatus(new java.util.HashSet<>(Set.of(500))).build();
        assertThrows(UnsupportedOperationException.class, () -> c.retryStatus().add(502));
    }

    private static void assertMessage(String expected, RetryConfig.Builder builder) {
        ConfigException e = assertThrows(ConfigException.class, builder::build);
        assertEquals(expected, e.getMessage());
    }
}
