package shaper.limit;

/** {@link FifoLimiter#enqueue(int)} found the waiter queue already at its depth bound; nothing was queued. */
public final class QueueFullException extends AdmissionException {
    private final int depth;

    public QueueFullException(String limiter, int waiters, int depth) {
        super(limiter, "queue full (" + waiters + " waiting, depth " + depth + ")");
        this.depth = depth;
    }

    /** The depth bound that was reached. */
    public int depth() {
        return depth;
    }
}
