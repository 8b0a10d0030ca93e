package shaper.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import shaper.retry.HeaderLookup;

/** Both header families and retry-after, read into one provider's state. */
class RateLimitHeadersTest {
    private static final Instant NOW = Instant.parse("2026-12-01T17:00:00Z");

    @Test
    void anthropicFamilyWithRfc3339Resets() {
        HeaderLookup h = HeaderLookup.of(
                "anthropic-ratelimit-requests-limit", "50", "anthropic-ratelimit-requests-remaining", "49",
                "anthropic-ratelimit-requests-reset", "2026-12-01T17:00:01Z",
                "anthropic-ratelimit-input-tokens-limit", "30000", "anthropic-ratelimit-input-tokens-remaining", "29000",
                "anthropic-ratelimit-input-tokens-reset", "2026-12-01T17:00:02+00:00",
                "anthropic-ratelimit-output-tokens-limit", "8000", "anthropic-ratelimit-output-tokens-remaining", "8000",
                "anthropic-ratelimit-output-tokens-reset", "2026-12-01T17:00:00Z",
                "anthropic-ratelimit-tokens-limit", "38000", "anthropic-ratelimit-tokens-remaining", "37000",
                "anthropic-ratelimit-tokens-reset", "not a date");
        RateLimitHeaders.Observation o = RateLimitHeaders.read(h, 200, NOW);
        assertEquals(new RateLimitReading(50, 49, NOW.plusSeconds(1), NOW), o.readings().get(RateLimitKind.REQUESTS));
        assertEquals(new RateLimitReading(30000, 29000, NOW.plusSeconds(2), NOW), o.readings().get(RateLimitKind.INPUT_TOKENS));
        assertEquals(8000, o.readings().get(RateLimitKind.OUTPUT_TOKENS).remaining());
        assertNull(o.readings().get(RateLimitKind.TOKENS).reset(), "a malformed reset is absent, never a failure");
        assertTrue(o.retryUntil().isEmpty(), "retry-after counts on 429/529 only");
    }

    @Test
    void openAiFamilyWithGoDurationResets() {
        HeaderLookup h = HeaderLookup.of("x-ratelimit-limit-requests", "5000", "x-ratelimit-remaining-requests", "4999",
                "x-ratelimit-reset-requests", "12ms", "x-ratelimit-limit-tokens", "160000", "x-ratelimit-remaining-tokens", "159976",
                "x-ratelimit-reset-tokens", "6m0s");
        RateLimitHeaders.Observation o = RateLimitHeaders.read(h, 200, NOW);
        assertEquals(new RateLimitReading(5000, 4999, NOW.plusMillis(12), NOW), o.readings().get(RateLimitKind.REQUESTS));
        assertEquals(new RateLimitReading(160000, 159976, NOW.plusSeconds(360), NOW), o.readings().get(RateLimitKind.TOKENS));
        assertFalse(o.readings().containsKey(RateLimitKind.INPUT_TOKENS));
        assertEquals(NOW.plusSeconds(1), RateLimitHeaders.resetAfter("1s", NOW).orElseThrow());
        assertEquals(NOW.plusMillis(1500), RateLimitHeaders.resetAfter("1.5", NOW).orElseThrow());
    }

    @Test
    void retryAfterOn429And529() {
        assertEquals(NOW.plusSeconds(7), RateLimitHeaders.read(HeaderLookup.of("retry-after", "7"), 429, NOW).retryUntil().orElseThrow());
        assertEquals(NOW.plusSeconds(3), RateLimitHeaders.read(HeaderLookup.of("retry-after", "3"), 529, NOW).retryUntil().orElseThrow());
        assertEquals(NOW.plusMillis(250), RateLimitHeaders.read(HeaderLookup.of("retry-after-ms", "250", "retry-after", "1"), 429, NOW)
                .retryUntil().orElseThrow());
        assertTrue(RateLimitHeaders.read(HeaderLookup.of("retry-after", "7"), 503, NOW).empty());
    }

    @Test
    void theNewestReadingPerKindWinsAndAnOlderOneIsIgnored() {
        UpstreamRateLimits limits = new UpstreamRateLimits();
        limits.observe(RateLimitHeaders.read(HeaderLookup.of("x-ratelimit-limit-tokens", "1000", "x-ratelimit-remaining-tokens", "900"),
                200, NOW));
        limits.observe(RateLimitHeaders.read(HeaderLookup.of("x-ratelimit-remaining-tokens", "500"), 200, NOW.plusSeconds(1)));
        limits.observe(RateLimitHeaders.read(HeaderLookup.of("x-ratelimit-remaining-tokens", "950"), 200, NOW.minusSeconds(1)));
        limits.observe(RateLimitHeaders.read(HeaderLookup.of("retry-after", "2"), 429, NOW));
        UpstreamRateLimits.State s = limits.state();
        assertEquals(1000, s.readings().get(RateLimitKind.TOKENS).limit(), "a response stating only remaining keeps the limit");
        assertEquals(500, s.readings().get(RateLimitKind.TOKENS).remaining());
        assertEquals(NOW.plus(Duration.ofSeconds(2)), s.retryUntil());
    }
}
