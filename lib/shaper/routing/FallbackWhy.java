package shaper.routing;

/**
 * Why a request left a target for the next one, before anything of its answer reached the client.
 * Each has the label the journal, the exchange line and {@code shaper_fallbacks_total{reason}} use.
 */
public enum FallbackWhy {
    /** The target answered {@code 429} (after its own retries, when it has any). */
    RATE_LIMITED("429"),
    /** The target answered {@code 529} (Anthropic's overloaded). */
    OVERLOADED("529"),
    /** The target answered another {@code 5xx}. */
    SERVER_ERROR("5xx"),
    /** The target answered {@code 402}: the account's credit or usage cap is spent. */
    PAYMENT_REQUIRED("402"),
    /** The target answered a {@code 403} that carries rate-limit signals. */
    RATE_LIMIT_FORBIDDEN("403"),
    /** The target could not be reached (connect, reset, timeout) and its retries gave up. */
    TRANSPORT("transport"),
    /** The target's circuit was open. */
    CIRCUIT_OPEN("circuit_open"),
    /** The request waited {@code -fallback-after} (or the target's {@code -queue-timeout}) without being admitted. */
    QUEUE_WAIT("queue_wait"),
    /** The target's queue was full ({@code -queue-depth}). */
    QUEUE_FULL("queue_full"),
    /** The target's shared limiter was unreachable and refuses while so. */
    LIMITER_UNAVAILABLE("limiter_unavailable");

    private final String label;

    FallbackWhy(String label) {
        this.label = label;
    }

    public String label() {
        return label;
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
