package shaper.ratelimit;

import java.time.Instant;

/**
 * One kind's limit as one response stated it.
 *
 * @param limit      the limit per window (per minute for the APIs we know), -1 when not stated
 * @param remaining  what is left now, -1 when not stated
 * @param reset      when the bucket is full again (Anthropic) or the window resets (OpenAI); null when not stated
 * @param observedAt when the response carrying it arrived
 */
public record RateLimitReading(long limit, long remaining, Instant reset, Instant observedAt) {
    public RateLimitReading {
        if (limit < -1 || remaining < -1) {
            throw new IllegalArgumentException("limit/remaining: " + limit + "/" + remaining + " (expected: >= -1)");
        }
        java.util.Objects.requireNonNull(observedAt, "observedAt");
    }

    /** This reading with the fields {@code newer} states replacing this one's. */
    RateLimitReading then(RateLimitReading newer) {
        return new RateLimitReading(newer.limit >= 0 ? newer.limit : limit, newer.remaining >= 0 ? newer.remaining : remaining,
                newer.reset != null ? newer.reset : reset, newer.observedAt);
    }
}
