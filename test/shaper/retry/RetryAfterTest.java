package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class RetryAfterTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    private static String httpDate(Instant t) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(t.atOffset(ZoneOffset.UTC));
    }

    @Test
    void deltaSecondsCountFromReceipt() {
        HeaderLookup h = HeaderLookup.of("Retry-After", "30");
        assertEquals(Optional.of(Duration.ofSeconds(30)), RetryAfter.remaining(h, NOW));
        assertEquals(Optional.of(Duration.ofSeconds(20)), RetryAfter.remaining(h, NOW, NOW.plusSeconds(10)));
        assertEquals(Optional.empty(), RetryAfter.remaining(h, NOW, NOW.plusSeconds(30)));
    }

    @Test
    void zeroMalformedAndAbsentMeanNoWait() {
        assertEquals(Optional.empty(), RetryAfter.remaining(HeaderLookup.of("Retry-After", "0"), NOW));
        assertEquals(Optional.empty(), RetryAfter.remaining(HeaderLookup.of("Retry-After", "soon"), NOW));
        assertEquals(Optional.empty(), RetryAfter.remaining(HeaderLookup.of("Retry-After", "-5"), NOW));
        assertEquals(Optional.empty(), RetryAfter.remaining(HeaderLookup.none(), NOW));
        assertFalse(RetryAfter.inEffect(HeaderLookup.of("Retry-After", "0"), NOW, NOW));
    }

    @Test
    void headerNameIsCaseInsensitive() {
        assertEquals(Optional.of(Duration.ofSeconds(5)), RetryAfter.remaining(HeaderLookup.of("retry-after", "5"), NOW));
    }

    @Test
    void hugeDeltaIsClampedNotOverflowed() {
        Optional<Duration> d = RetryAfter.remaining(HeaderLookup.of("Retry-After", "99999999999999999999999"), NOW);
        assertTrue(d.isPresent() && d.get().toDays() > 365 * 50);
    }

    @Test
    void httpDateIsMeasuredAgainstTheUpstreamDateHeader() {
        // Upstream clock runs 1h ahead of ours: only the upstream's own Retry-After − Date matters.
        Instant upstreamNow = NOW.plusSeconds(3600);
        HeaderLookup h = HeaderLookup.of("Retry-After", httpDate(upstreamNow.plusSeconds(40)), "Date", httpDate(upstreamNow));
        assertEquals(Optional.of(Duration.ofSeconds(40)), RetryAfter.remaining(h, NOW));
        assertEquals(Optional.of(Duration.ofSeconds(25)), RetryAfter.remaining(h, NOW, NOW.plusSeconds(15)));
        assertTrue(RetryAfter.inEffect(h, NOW, NOW.plusSeconds(39)));
        assertFalse(RetryAfter.inEffect(h, NOW, NOW.plusSeconds(40)));
    }

    @Test
    void httpDateWithoutDateHeaderUsesOurClock() {
        HeaderLookup h = HeaderLookup.of("Retry-After", httpDate(NOW.plusSeconds(12)));
        assertEquals(Optional.of(Duration.ofSeconds(12)), RetryAfter.remaining(h, NOW));
        assertEquals(Optional.empty(), RetryAfter.remaining(h, NOW.plusSeconds(12)));
    }

    @Test
    void unparseableDateHeaderFallsBackToOurClock() {
        HeaderLookup h = HeaderLookup.of("Retry-After", httpDate(NOW.plusSeconds(12)), "Date", "yesterday");
        assertEquals(Optional.of(Duration.ofSeconds(12)), RetryAfter.remaining(h, NOW));
    }

    @Test
    void banToleratesOneSecondOfSkewWithoutUpstreamDate() {
        HeaderLookup h = HeaderLookup.of("Retry-After", httpDate(NOW));
        assertTrue(RetryAfter.inEffect(h, NOW, NOW.plusMillis(999)));
        assertTrue(RetryAfter.inEffect(h, NOW, NOW.plusSeconds(1)));
        assertFalse(RetryAfter.inEffect(h, NOW, NOW.plusMillis(1001)));
        // The tolerance is for ban classification only; nobody waits for an expired date.
        assertEquals(Optional.empty(), RetryAfter.remaining(h, NOW.plusMillis(500)));
    }

    @Test
    void expiredDateWithUpstreamDateIsNoBan() {
        HeaderLookup h = HeaderLookup.of("Retry-After", httpDate(NOW.minusSeconds(5)), "Date", httpDate(NOW));
        assertFalse(RetryAfter.inEffect(h, NOW, NOW));
    }

    @Test
    void obsoleteHttpDateFormsAreAccepted() {
        Instant expected = Instant.parse("1994-11-06T08:49:37Z");
        assertEquals(Optional.of(expected), RetryAfter.parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(Optional.of(expected), RetryAfter.parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT"));
        assertEquals(Optional.of(expected), RetryAfter.parseHttpDate("Sun Nov  6 08:49:37 1994"));
        assertEquals(Optional.empty(), RetryAfter.parseHttpDate("06/11/1994"));
    }
}
