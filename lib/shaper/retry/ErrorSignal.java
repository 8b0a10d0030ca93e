package shaper.retry;

/**
 * What an upstream error body says about replaying the request, read once from its wording by
 * {@link ErrorWording#scan}. Retry rules switch on this type, never on the text.
 */
public enum ErrorSignal {
    /** The request itself is invalid; replaying it cannot succeed. Wins over every other wording. */
    INVALID_REQUEST,
    /** A rate limit, overload or transient upstream failure: a replay may succeed. */
    RATE_LIMIT_OR_TRANSIENT,
    /** Neither: the body gives no reason to retry. */
    NONE
}
