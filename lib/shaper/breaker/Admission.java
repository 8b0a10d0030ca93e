package shaper.breaker;

/**
 * The answer of {@link CircuitBreaker#allow()}: either the request may go upstream, carrying the
 * ticket that its result must be reported with, or the breaker rejects it and the proxy answers
 * {@code 503 circuit open} without touching the upstream.
 */
public sealed interface Admission {

    /** The single rejection value. */
    Rejected REJECTED = new Rejected();

    /**
     * The request may go upstream. Report its result exactly once with
     * {@link CircuitBreaker#recordSuccess}, {@link CircuitBreaker#recordFailure},
     * {@link CircuitBreaker#recordNeutral} or {@link CircuitBreaker#cancel}.
     *
     * @param epoch      the breaker epoch this admission belongs to; results from an older epoch are ignored
     * @param startNanos ticker value at admission
     * @param probe      {@code true} for the single half-open probe whose result closes or reopens the circuit
     */
    record Allowed(long epoch, long startNanos, boolean probe) implements Admission {
    }

    /** The circuit is open (or its probe is already out): answer {@code 503 circuit open}. */
    record Rejected() implements Admission {
    }
}
