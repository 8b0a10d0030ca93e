package shaper.observe;

import java.util.Locale;

import shaper.retry.GiveUpReason;
import shaper.retry.RetryDecision;

/**
 * The log lines of retry decisions, one per decision that matters to an operator: each replay
 * (with its reason and wait) and each give-up that only the budget forced. A give-up on a
 * status that is never retried is not a decision worth a line; the exchange line shows it.
 * Paths only, never the query (it may carry keys).
 */
public final class RetryLines {
    private RetryLines() {
    }

    /** {@code retry provider=p method=POST path=/v1/messages attempt=1 reason=server_error delay=1.2s}. */
    public static String retry(String provider, String method, String path, int attempt, RetryDecision.Retry r) {
        return "retry provider=" + provider + " method=" + method + " path=" + path + " attempt=" + attempt
                + " reason=" + r.reason().name().toLowerCase(Locale.ROOT) + " delay=" + seconds(r.delay().toMillis());
    }

    /** {@code retry-give-up provider=p method=POST path=/v1/messages attempt=3 reason=attempts_exhausted}. */
    public static String giveUp(String provider, String method, String path, int attempt, GiveUpReason reason) {
        return "retry-give-up provider=" + provider + " method=" + method + " path=" + path + " attempt=" + attempt
                + " reason=" + reason.name().toLowerCase(Locale.ROOT);
    }

    private static String seconds(long millis) {
        return millis / 1000 + "." + String.format(Locale.ROOT, "%03d", millis % 1000) + "s";
    }
}
