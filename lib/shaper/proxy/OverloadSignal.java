package shaper.proxy;

import java.util.Set;

import shaper.retry.ErrorSignal;
import shaper.retry.ErrorWording;

/**
 * Which upstream answers say "too much load" to an adaptive concurrency limit: {@code 429},
 * {@code 529} (Anthropic's overloaded), {@code 503}, a {@code -retry-status} status whose body carries
 * the rate-limit or transient wording, and an early SSE error under a 200 (decided by the caller,
 * which inspects the stream). Other failures (a 500, a bad request, a reset) say nothing about
 * capacity. Pure functions.
 */
final class OverloadSignal {
    /** The cause an early SSE error is logged with. */
    static final String EARLY_SSE_ERROR = "early SSE error";

    private OverloadSignal() {
    }

    /** The cause from the status alone, or empty. */
    static String ofStatus(int status) {
        return status == 429 || status == 529 || status == 503 ? Integer.toString(status) : "";
    }

    /**
     * The cause from the status and the first bytes of an error body, or empty.
     *
     * @param errorBody   decoded prefix of the body, or {@code null} when it was not read
     * @param retryStatus {@code -retry-status}: the statuses whose body wording counts
     */
    static String of(int status, byte[] errorBody, Set<Integer> retryStatus) {
        String byStatus = ofStatus(status);
        if (!byStatus.isEmpty() || errorBody == null || !retryStatus.contains(status)) {
            return byStatus;
        }
        return ErrorWording.scan(errorBody) == ErrorSignal.RATE_LIMIT_OR_TRANSIENT ? status + " rate-limit wording" : "";
    }
}
