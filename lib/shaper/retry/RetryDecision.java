package shaper.retry;

import java.time.Duration;
import java.util.Objects;

/** The outcome of {@link RetryPolicy}: wait and replay, or give up. Switch on it exhaustively. */
public sealed interface RetryDecision {

    /**
     * Replay the request after {@code delay}. For {@link RetryReason#STALE_REASONING} the replayed body is
     * {@link StaleReasoning#stripCarriers} of the body last sent; when that finds nothing to strip, the 400 is
     * returned instead.
     *
     * @param reason why the attempt is replayed
     * @param delay  how long to wait first; never negative, always below the remaining deadline
     */
    record Retry(RetryReason reason, Duration delay) implements RetryDecision {
        public Retry {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("delay: " + delay + " (expected: >= 0)");
            }
        }
    }

    /** Stop: the last response (or a synthesized error for status 0 / an error under 200) is final. */
    record GiveUp(GiveUpReason reason) implements RetryDecision {
        public GiveUp {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
