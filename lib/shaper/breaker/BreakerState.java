package shaper.breaker;

/**
 * The three states of a {@link CircuitBreaker}, with the value exported as
 * {@code shaper_breaker_state}.
 */
public enum BreakerState {
    /** Requests flow; failures are counted in the sliding window. */
    CLOSED(0),
    /** One probe request is (or may be) in flight; everything else is rejected. */
    HALF_OPEN(1),
    /** Every request is rejected until the open timeout has elapsed. */
    OPEN(2);

    private final int metricValue;

    BreakerState(int metricValue) {
        this.metricValue = metricValue;
    }

    /** The gauge value: closed 0, half-open 1, open 2. */
    public int metricValue() {
        return metricValue;
    }
}
