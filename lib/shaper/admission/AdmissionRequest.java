package shaper.admission;

import shaper.limit.QueueClass;

/**
 * One request on its way through an {@link AdmissionChain}: its class, its priority class (the lane
 * it waits in, in every limiter it passes), how it waits and the start of its one
 * {@code -queue-timeout} budget, shared by every link it passes. Belongs to the request's thread.
 */
public final class AdmissionRequest {
    private final AdmissionClass cls;
    private final QueueClass queueClass;
    private final QueueWait wait;
    private final long startNanos;
    private boolean prepared;

    AdmissionRequest(AdmissionClass cls, QueueClass queueClass, QueueWait wait, long startNanos) {
        this.cls = cls;
        this.queueClass = queueClass;
        this.wait = wait;
        this.startNanos = startNanos;
    }

    public AdmissionClass cls() {
        return cls;
    }

    /** The priority class it queues in; {@link QueueClass#DEFAULT} when no classes are declared. */
    public QueueClass queueClass() {
        return queueClass;
    }

    public QueueWait waiting() {
        return wait;
    }

    /** The clock reading at which the request began to be admitted (the budget's start). */
    long startNanos() {
        return startNanos;
    }

    /** Calls {@link QueueWait#beforeWaiting()} the first time any link queues the request. */
    void prepareOnce() throws ClientGoneException {
        if (!prepared) {
            prepared = true;
            wait.beforeWaiting();
        }
    }
}
