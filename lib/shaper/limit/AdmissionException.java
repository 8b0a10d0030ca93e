package shaper.limit;

/**
 * A request was not admitted by a limiter. The subtype decides the answer: {@link QueueFullException}
 * is a {@code 429}, {@link QueueTimeoutException} a {@code 504 queue timeout}, {@link QueueCancelledException}
 * a {@code 503 request canceled}, {@link LimiterUnavailableException} a {@code 503} in the client's dialect. These are expected outcomes under load, so they carry no stack trace.
 */
public abstract sealed class AdmissionException extends Exception
        permits QueueFullException, QueueTimeoutException, QueueCancelledException, LimiterUnavailableException {
    private final String limiter;

    AdmissionException(String limiter, String message) {
        super("limiter \"" + limiter + "\": " + message, null, false, false);
        this.limiter = limiter;
    }

    /** The name of the limiter that refused admission. */
    public String limiter() {
        return limiter;
    }
}
