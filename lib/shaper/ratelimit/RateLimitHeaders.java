package shaper.ratelimit;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import shaper.config.GoDuration;
import shaper.retry.HeaderLookup;
import shaper.retry.RetryAfter;

/**
 * Reads both rate-limit header families and {@code retry-after} from one response's headers. A
 * malformed value is treated as absent: these headers inform, they never fail an exchange.
 */
public final class RateLimitHeaders {
    /** OpenAI's names use the kind's plural; it states requests and tokens only. */
    private static final Map<RateLimitKind, String> OPENAI = Map.of(RateLimitKind.REQUESTS, "requests", RateLimitKind.TOKENS, "tokens");

    private RateLimitHeaders() {
    }

    /** What one response stated. */
    public record Observation(Map<RateLimitKind, RateLimitReading> readings, Optional<Instant> retryUntil) {
        public Observation {
            readings = Map.copyOf(readings);
        }

        public boolean empty() {
            return readings.isEmpty() && retryUntil.isEmpty();
        }
    }

    /**
     * @param status the response's status; {@code retry-after} counts on {@code 429} and {@code 529} only
     * @param now    when the response arrived
     */
    public static Observation read(HeaderLookup headers, int status, Instant now) {
        Map<RateLimitKind, RateLimitReading> readings = new EnumMap<>(RateLimitKind.class);
        for (RateLimitKind kind : RateLimitKind.values()) {
            String a = "anthropic-ratelimit-" + kind.anthropicName() + "-";
            long limit = number(headers, a + "limit");
            long remaining = number(headers, a + "remaining");
            Instant reset = headers.first(a + "reset").flatMap(RateLimitHeaders::instant).orElse(null);
            String o = OPENAI.get(kind);
            if (o != null) {
                limit = limit >= 0 ? limit : number(headers, "x-ratelimit-limit-" + o);
                remaining = remaining >= 0 ? remaining : number(headers, "x-ratelimit-remaining-" + o);
                if (reset == null) {
                    reset = headers.first("x-ratelimit-reset-" + o).flatMap(v -> resetAfter(v, now)).orElse(null);
                }
            }
            if (limit >= 0 || remaining >= 0 || reset != null) {
                readings.put(kind, new RateLimitReading(limit, remaining, reset, now));
            }
        }
        Optional<Instant> retryUntil = Optional.empty();
        if (status == 429 || status == 529) {
            Optional<Duration> wait = headers.first("retry-after-ms").flatMap(RateLimitHeaders::millis)
                    .or(() -> RetryAfter.remaining(headers, now));
            retryUntil = wait.map(now::plus);
        }
        return new Observation(readings, retryUntil);
    }

    private static long number(HeaderLookup headers, String name) {
        Optional<String> v = headers.first(name);
        if (v.isEmpty()) {
            return -1;
        }
        try {
            long n = Long.parseLong(v.get());
            return n >= 0 ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Anthropic's RFC 3339 instant. */
    private static Optional<Instant> instant(String v) {
        try {
            return Optional.of(OffsetDateTime.parse(v).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** OpenAI's duration ({@code 6m0s}, {@code 20ms}); a bare number is seconds, an RFC 3339 instant is taken as is. */
    static Optional<Instant> resetAfter(String v, Instant now) {
        try {
            return Optional.of(now.plus(GoDuration.parse(v)));
        } catch (IllegalArgumentException | ArithmeticException e) {
            // not a Go duration: try the other spellings
        }
        try {
            double seconds = Double.parseDouble(v);
            if (seconds >= 0 && seconds < 1e9) {
                return Optional.of(now.plusMillis((long) (seconds * 1000)));
            }
        } catch (NumberFormatException e) {
            // not a number either
        }
        return instant(v);
    }

    private static Optional<Duration> millis(String v) {
        try {
            double ms = Double.parseDouble(v);
            return ms > 0 ? Optional.of(Duration.ofNanos((long) (ms * 1e6))) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
