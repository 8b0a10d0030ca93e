package shaper.admission;

import java.util.concurrent.atomic.AtomicBoolean;

import shaper.limit.QueueClass;

/**
 * One request on its way through an {@link AdmissionChain}: its class, its priority class (the lane
 * it waits in, in every limiter it passes), how it waits and the start of its one
 * {@code -queue-timeout} budget, shared by every link it passes. Belongs to the request's thread.
 *
 * @param cls        the limiters the request must pass
 * @param queueClass the priority class it queues in; {@link QueueClass#DEFAULT} when no classes are declared
 * @param waiting    what the request does while it waits
 * @param startNanos the clock reading at which admission began (the budget's start)
 * @param prepared   set once {@link QueueWait#beforeWaiting()} ran
 */
public record AdmissionRequest(AdmissionClass cls, QueueClass queueClass, QueueWait waiting, long startNanos,
                               AtomicBoolean prepared) {

    AdmissionRequest(AdmissionClass cls, QueueClass queueClass, QueueWait waiting, long startNanos) {
        this(cls, queueClass, waiting, startNanos, new AtomicBoolean());
    }

    /** Calls {@link QueueWait#beforeWaiting()} the first time any link queues the request. */
    void prepareOnce() throws ClientGoneException {
        if (prepared.compareAndSet(false, true)) {
            waiting.beforeWaiting();
        }
    }
}
