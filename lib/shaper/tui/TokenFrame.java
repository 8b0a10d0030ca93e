package shaper.tui;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import shaper.ratelimit.RateLimitKind;
import shaper.ratelimit.UpstreamRateLimits;

/**
 * A provider's token economics at one instant, for the Tokens tab and the Dashboard's tokens/min.
 *
 * @param inPerMinute  input tokens (cache reads and writes included) of exchanges that ended in the last 60 s
 * @param outPerMinute output tokens of those exchanges
 * @param models       usage per model since start or reset, most tokens first
 * @param rateLimits   what the upstream's rate-limit headers said last, per kind, and its newest {@code retry-after}
 * @param budget       each pacing bucket's level (may be negative: a debt); empty when admission is not paced
 * @param budgetWaits  requests that waited for tokens, by what they waited for; empty when not paced
 * @param tokenQueue   requests waiting for tokens now
 */
public record TokenFrame(long inPerMinute, long outPerMinute, List<ModelRow> models, UpstreamRateLimits.State rateLimits,
                         Map<RateLimitKind, Double> budget, Map<String, Long> budgetWaits, int tokenQueue) {
    public static final TokenFrame EMPTY = new TokenFrame(0, 0, List.of(), UpstreamRateLimits.State.EMPTY, Map.of(), Map.of(), 0);

    public TokenFrame {
        models = List.copyOf(models);
        Objects.requireNonNull(rateLimits, "rateLimits");
        budget = Map.copyOf(budget);
        budgetWaits = Map.copyOf(budgetWaits);
    }

    /** Tokens in and out over the last minute. */
    long perMinute() {
        return inPerMinute + outPerMinute;
    }

    /** Whether the upstream's {@code retry-after} still holds at {@code now}. */
    boolean retryHolds(Instant now) {
        return rateLimits.retryUntil() != null && rateLimits.retryUntil().isAfter(now);
    }
}
