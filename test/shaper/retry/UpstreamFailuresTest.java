package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.junit.jupiter.api.Test;

class UpstreamFailuresTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    private static FailureClass classify(int status, HeaderLookup h) {
        return UpstreamFailures.classify(status, h, NOW);
    }

    @Test
    void transportErrorRateLimitAndServerErrorsAreFailures() {
        assertEquals(FailureClass.TRANSPORT_ERROR, classify(0, HeaderLookup.none()));
        assertEquals(FailureClass.RATE_LIMITED, classify(429, HeaderLookup.none()));
        for (int s : new int[] {500, 502, 503, 504, 529, 599}) {
            assertEquals(FailureClass.SERVER_ERROR, classify(s, HeaderLookup.none()), "status " + s);
            assertTrue(classify(s, HeaderLookup.none()).isUpstreamFailure());
        }
    }

    @Test
    void twoHundredsAreSuccess() {
        assertEquals(FailureClass.SUCCESS, classify(200, HeaderLookup.none()));
        assertEquals(FailureClass.SUCCESS, classify(204, HeaderLookup.none()));
        assertTrue(FailureClass.SUCCESS.isSuccess());
        assertFalse(FailureClass.SUCCESS.isUpstreamFailure());
    }

    @Test
    void bareForbiddenAndOtherClientErrorsAreNeutral() {
        for (int s : new int[] {400, 401, 403, 404, 413, 422}) {
            FailureClass c = classify(s, HeaderLookup.of("Content-Type", "application/json"));
            assertEquals(FailureClass.CLIENT_ERROR, c, "status " + s);
            assertFalse(c.isUpstreamFailure());
            assertFalse(c.isSuccess());
        }
        assertEquals(FailureClass.NEUTRAL, classify(302, HeaderLookup.none()));
        assertEquals(FailureClass.NEUTRAL, classify(101, HeaderLookup.none()));
    }

    @Test
    void forbiddenWithAnyRateLimitHeaderIsATemporaryBan() {
        for (String name : UpstreamFailures.RATE_LIMIT_HEADERS) {
            assertEquals(FailureClass.TEMPORARY_BAN, classify(403, HeaderLookup.of(name.toUpperCase(), "0")), name);
        }
        assertTrue(FailureClass.TEMPORARY_BAN.isUpstreamFailure());
    }

    @Test
    void forbiddenWithLiveRetryAfterIsATemporaryBan() {
        assertEquals(FailureClass.TEMPORARY_BAN, classify(403, HeaderLookup.of("Retry-After", "60")));
        String future = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(60).atOffset(ZoneOffset.UTC));
        assertEquals(FailureClass.TEMPORARY_BAN, classify(403, HeaderLookup.of("Retry-After", future)));
    }

    @Test
    void forbiddenWithZeroOrExpiredRetryAfterIsNotABan() {
        assertEquals(FailureClass.CLIENT_ERROR, classify(403, HeaderLookup.of("Retry-After", "0")));
        String past = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.minusSeconds(30).atOffset(ZoneOffset.UTC));
        assertEquals(FailureClass.CLIENT_ERROR, classify(403, HeaderLookup.of("Retry-After", past)));
        // Consumed while the body was read: 5s delay-seconds evaluated 6s after receipt.
        assertEquals(FailureClass.CLIENT_ERROR,
                UpstreamFailures.classify(403, HeaderLookup.of("Retry-After", "5"), NOW, NOW.plusSeconds(6)));
    }

    @Test
    void rateLimitHeaderWinsOverMalformedRetryAfter() {
        assertEquals(FailureClass.TEMPORARY_BAN,
                classify(403, HeaderLookup.of("Retry-After", "later", "x-ratelimit-remaining", "0")));
        assertEquals(FailureClass.CLIENT_ERROR, classify(403, HeaderLookup.of("Retry-After", "later")));
    }

    @Test
    void forbiddenBanUsesUpstreamDateNotOurClock() {
        // Upstream clock 10 minutes behind ours; its own Retry-After − Date says 30s.
        Instant upstream = NOW.minusSeconds(600);
        DateTimeFormatter f = DateTimeFormatter.RFC_1123_DATE_TIME;
        HeaderLookup h = HeaderLookup.of("Retry-After", f.format(upstream.plusSeconds(30).atOffset(ZoneOffset.UTC)),
                "Date", f.format(upstream.atOffset(ZoneOffset.UTC)));
        assertEquals(FailureClass.TEMPORARY_BAN, classify(403, h));
    }
}
