package shaper.routing;

/**
 * Why a request left a target for the next one, before anything of its answer reached the client.
 * Each has the label the journal, the exchange line and {@code shaper_fallbacks_total{reason}} use.
 */
public enum FallbackWhy {
    /** The target answered {@code 429} (after its own retries, when it has any). */
    RATE_LIMITED,
    /** The target answered {@code 529} (Anthropic's overloaded). */
    OVERLOADED,
    /** The target answered another {@code 5xx}. */
    SERVER_ERROR,
    /** The target answered {@code 402}: the account's credit or usage cap is spent. */
    PAYMENT_REQUIRED,
    /** The target answered a {@code 403} that carries rate-limit signals. */
    RATE_LIMIT_FORBIDDEN,
    /** The target could not be reached (connect, reset, timeout) and its retries gave up. */
    TRANSPORT,
    /** The target's circuit was open. */
    CIRCUIT_OPEN,
    /** The request waited {@code -fallback-after} (or the target's {@code -queue-timeout}) without being admitted. */
    QUEUE_WAIT,
    /** The target's queue was full ({@code -queue-depth}). */
    QUEUE_FULL,
    /** The target's shared limiter was unreachable and refuses while so. */
    LIMITER_UNAVAILABLE;

    /** The label: the status for an upstream answer, else the lowercase name. */
    public String label() {
        return switch (this) {
            case RATE_LIMITED -> "429";
            case OVERLOADED -> "529";
            case SERVER_ERROR -> "5xx";
            case PAYMENT_REQUIRED -> "402";
            case RATE_LIMIT_FORBIDDEN -> "403";
            case TRANSPORT, CIRCUIT_OPEN, QUEUE_WAIT, QUEUE_FULL, LIMITER_UNAVAILABLE -> name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * The trigger an upstream status is, or null when the answer is relayed as it is.
     *
     * @param rateLimitSignalled whether a {@code 403} carried rate-limit wording or headers
     */
    public static FallbackWhy ofStatus(int status, boolean rateLimitSignalled) {
        return switch (status) {
            case 429 -> RATE_LIMITED;
            case 529 -> OVERLOADED;
            case 402 -> PAYMENT_REQUIRED;
            case 403 -> rateLimitSignalled ? RATE_LIMIT_FORBIDDEN : null;
            // 501 and 505 say the request itself cannot be served: another target would refuse it too
            default -> status >= 500 && status <= 599 && status != 501 && status != 505 ? SERVER_ERROR : null;
        };
    }
}
