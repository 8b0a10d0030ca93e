package shaper.retry;

/** Why a failed attempt is final: its response (or a synthesized error) goes to the client. */
public enum GiveUpReason {
    /** A status that is never retried: a bare 403, other 4xx outside {@code -retry-status}, 1xx–3xx. */
    NOT_RETRYABLE,
    /** The body marks a deterministic invalid request ({@link ErrorWording#INVALID_REQUEST}); wins over any wording. */
    INVALID_REQUEST,
    /** A 429 while {@code -retry-skip-429} is on. */
    SKIP_429,
    /** A status in {@code -retry-status} whose body has no recognized rate-limit/transient wording. */
    UNRECOGNIZED_WORDING,
    /** A second resource mismatch after the carriers were already stripped: returned, never looped. */
    STALE_REASONING_ALREADY_TRIED,
    /** Retryable, but {@code -retry 0}. */
    RETRIES_DISABLED,
    /** Retryable, but every allowed upstream call has been made. */
    ATTEMPTS_EXHAUSTED,
    /** Retryable, but the wait would reach the end of {@code -retry-deadline}. */
    DEADLINE_EXHAUSTED;

    /**
     * True when the failure itself was retryable and only the budget stopped it; the proxy then adds a
     * {@code Retry-After} to a non-streaming error response that lacks one.
     */
    public boolean budgetExhausted() {
        return this == RETRIES_DISABLED || this == ATTEMPTS_EXHAUSTED || this == DEADLINE_EXHAUSTED;
    }
}
