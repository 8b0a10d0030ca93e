package shaper.retry;

/** Why a failed attempt may be replayed. Each maps to a log line and a retry metric label. */
public enum RetryReason {
    /** No response: connect, TLS, reset or per-call timeout (status 0), including on the first attempt. */
    TRANSPORT_ERROR,
    /** 500–599 whose body does not mark an invalid request. */
    SERVER_ERROR,
    /** 429 retried on its status alone: {@code -retry-skip-429=false} and 429 not in {@code -retry-status}. */
    TOO_MANY_REQUESTS,
    /** A status in {@code -retry-status} whose body carries {@link ErrorWording#RATE_LIMIT_OR_TRANSIENT} wording. */
    RECOGNIZED_WORDING,
    /** HTTP 200 event stream whose first frames are a recognized {@code error} / {@code response.failed}. */
    ERROR_UNDER_200,
    /** 400 backend-resource mismatch: replay once with cc-switch reasoning carriers removed ({@link StaleReasoning}). */
    STALE_REASONING
}
