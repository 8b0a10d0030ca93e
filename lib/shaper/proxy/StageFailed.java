package shaper.proxy;

/**
 * An unexpected failure inside a stage, carrying the exchange as it stood so the handler can still
 * publish its one record before the failure goes on to Helidon.
 */
final class StageFailed extends RuntimeException {
    private final ExchangeResult result;

    StageFailed(ExchangeResult result, Throwable cause) {
        super(cause.getMessage(), cause, false, false);
        this.result = result;
    }

    ExchangeResult result() {
        return result;
    }

    /** The failure as it was thrown, thrown again. */
    RuntimeException rethrow() {
        if (getCause() instanceof RuntimeException r) {
            throw r;
        }
        throw (Error) getCause();
    }
}
