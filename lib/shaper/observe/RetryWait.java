package shaper.observe;

import java.time.Duration;
import java.util.Objects;

/**
 * An exchange waiting out a retry backoff, as the dashboard and the journal show it: which attempt
 * comes next, how long until it is sent, and why the last one is being replayed. Without it an
 * exchange under {@code -retry -1} looks like any long request ("active 27s").
 *
 * @param nextAttempt the attempt that follows the wait (2 after the first failure)
 * @param nextTryIn   time left until it is sent, never negative
 * @param why         the retry reason in words ({@code 429 too many requests}, {@code transport error})
 */
public record RetryWait(int nextAttempt, Duration nextTryIn, String why) {
    public RetryWait {
        if (nextAttempt < 2) {
            throw new IllegalArgumentException("nextAttempt: " + nextAttempt + " (expected: >= 2)");
        }
        Objects.requireNonNull(nextTryIn, "nextTryIn");
        Objects.requireNonNull(why, "why");
        if (nextTryIn.isNegative()) {
            nextTryIn = Duration.ZERO;
        }
    }
}
