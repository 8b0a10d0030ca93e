package shaper.limit;

/**
 * The ticket was cancelled ({@link Ticket#cancel()}, or its waiting thread was interrupted) before
 * its permit was claimed; it holds no slot.
 */
public final class QueueCancelledException extends AdmissionException {
    public QueueCancelledException(String limiter) {
        super(limiter, "request canceled while queued");
    }
}
