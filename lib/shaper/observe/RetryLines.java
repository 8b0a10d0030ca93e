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

    /** The retry reason in words, for the dashboard and the journal. */
    public static String why(shaper.retry.RetryReason reason) {
        return switch (reason) {
            case TRANSPORT_ERROR -> "upstream unreachable";
            case SERVER_ERROR -> "upstream 5xx";
            case TOO_MANY_REQUESTS -> "429 too many requests";
            case RECOGNIZED_WORDING -> "rate-limit wording in the upstream's error";
            case ERROR_UNDER_200 -> "error event in a 200 stream";
            case STALE_REASONING -> "stale reasoning carriers removed";
        };
    }

    private static String seconds(long millis) {
        return millis / 1000 + "." + String.format(Locale.ROOT, "%03d", millis % 1000) + "s";
    }
}
