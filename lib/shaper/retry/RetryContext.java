package shaper.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Where one request stands in its retry budget; immutable, one per attempt.
 *
 * @param attempt           the upstream call just made, 1 for the first call
 * @param deadline          end of the request's retry budget ({@code -retry-deadline} after the body was read)
 * @param reasoningStripped the stale-reasoning recovery has already been used
 */
public record RetryContext(int attempt, Instant deadline, boolean reasoningStripped) {
    public RetryContext {
        Objects.requireNonNull(deadline, "deadline");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt: " + attempt + " (expected: >= 1)");
        }
    }

    /** The context of the first call; {@code now} is when the request body has been read. */
    public static RetryContext first(RetryConfig config, Instant now) {
        return new RetryContext(1, now.plus(config.deadline()), false);
    }

    /** The context of the call that follows {@code retry}. */
    public RetryContext next(RetryDecision.Retry retry) {
        return new RetryContext(attempt + 1, deadline, reasoningStripped || retry.reason() == RetryReason.STALE_REASONING);
    }

    /** Time left in the budget at {@code now}; zero once expired. */
    public Duration remaining(Instant now) {
        Duration left = Duration.between(now, deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }
}
