package shaper.retry;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code Retry-After} response header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 *
 * <p>Two instants matter: {@code receivedAt}, when the response headers arrived, and {@code now}, when
 * the decision is made (later when the body was read first). Delay-seconds count from {@code receivedAt}.
 * An HTTP-date is compared with the upstream's own {@code Date} header when that parses, so the two
 * machines' clocks never meet; without a usable {@code Date} it is compared with our clock, and
 * {@link #inEffect} allows {@link #CLOCK_SKEW_TOLERANCE} of skew so transit time does not expire a
 * fresh ban. {@code Retry-After: 0}, an expired value or a malformed one means "no wait".
 */
public final class RetryAfter {
    /** How far an HTTP-date without an upstream {@code Date} may lie in the past and still count as a ban. */
    public static final Duration CLOCK_SKEW_TOLERANCE = Duration.ofSeconds(1);

    /** Past this many seconds a value is clamped; the retry deadline bounds any real wait long before. */
    private static final long MAX_SECONDS = 100L * 365 * 24 * 3600;

    /** RFC 9110 §5.6.7: IMF-fixdate, then the obsolete RFC 850 and asctime forms recipients must accept. */
    private static final List<DateTimeFormatter> HTTP_DATE_FORMATS = List.of(
            DateTimeFormatter.RFC_1123_DATE_TIME,
            new DateTimeFormatterBuilder().parseCaseInsensitive()
                    .appendPattern("EEEE, dd-MMM-")
                    .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
                    .appendPattern(" HH:mm:ss 'GMT'")
                    .toFormatter(Locale.US),
            new DateTimeFormatterBuilder().parseCaseInsensitive()
                    .appendPattern("EEE MMM ppd HH:mm:ss yyyy")
                    .toFormatter(Locale.US));

    private RetryAfter() {
    }

    /** {@link #remaining(HeaderLookup, Instant, Instant)} for a decision made as the headers arrive. */
    public static Optional<Duration> remaining(HeaderLookup headers, Instant now) {
        return remaining(headers, now, now);
    }

    /**
     * The wait the upstream still demands at {@code now}; empty when the header is absent, malformed,
     * {@code 0} or already expired. Never negative or zero when present.
     */
    public static Optional<Duration> remaining(HeaderLookup headers, Instant receivedAt, Instant now) {
        Optional<String> value = headers.first("Retry-After");
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Duration elapsed = nonNegative(Duration.between(receivedAt, now));
        Optional<Duration> delta = parseSeconds(value.get());
        if (delta.isPresent()) {
            return positive(delta.get().minus(elapsed));
        }
        Optional<Instant> until = parseHttpDate(value.get());
        if (until.isEmpty()) {
            return Optional.empty();
        }
        Optional<Instant> upstreamNow = headers.first("Date").flatMap(RetryAfter::parseHttpDate);
        if (upstreamNow.isPresent()) {
            return positive(Duration.between(upstreamNow.get(), until.get()).minus(elapsed));
        }
        return positive(Duration.between(now, until.get()));
    }

    /**
     * True while the header still signals a temporary ban: like {@link #remaining} but an HTTP-date
     * without a usable upstream {@code Date} counts until {@link #CLOCK_SKEW_TOLERANCE} after it passed.
     */
    public static boolean inEffect(HeaderLookup headers, Instant receivedAt, Instant now) {
        Optional<String> value = headers.first("Retry-After");
        if (value.isEmpty()) {
            return false;
        }
        boolean dateWithoutUpstreamClock = parseSeconds(value.get()).isEmpty()
                && headers.first("Date").flatMap(RetryAfter::parseHttpDate).isEmpty();
        if (!dateWithoutUpstreamClock) {
            return remaining(headers, receivedAt, now).isPresent();
        }
        return parseHttpDate(value.get())
                .map(until -> Duration.between(now, until).compareTo(CLOCK_SKEW_TOLERANCE.negated()) >= 0)
                .orElse(false);
    }

    /** Parses an HTTP-date in any of the three forms RFC 9110 requires recipients to accept. */
    public static Optional<Instant> parseHttpDate(String text) {
        String s = text.trim();
        for (DateTimeFormatter format : HTTP_DATE_FORMATS) {
            try {
                if (format == DateTimeFormatter.RFC_1123_DATE_TIME) {
                    return Optional.of(ZonedDateTime.parse(s, format).toInstant());
                }
                return Optional.of(LocalDateTime.parse(s, format).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException e) {
                // try the next form
            }
        }
        return Optional.empty();
    }

    private static Optional<Duration> parseSeconds(String s) {
        if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        String digits = s.replaceFirst("^0+(?=.)", "");
        long seconds = digits.length() > 12 ? MAX_SECONDS : Math.min(Long.parseLong(digits), MAX_SECONDS);
        return Optional.of(Duration.ofSeconds(seconds));
    }

    private static Optional<Duration> positive(Duration d) {
        return d.isNegative() || d.isZero() ? Optional.empty() : Optional.of(d);
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
