package shaper.admission;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request on its way through an {@link AdmissionChain}: its class, how it waits and the start
 * of its one {@code -queue-timeout} budget, shared by every link it passes. Belongs to the
 * request's thread.
 *
 * @param cls        the limiters the request must pass
 * @param waiting    what the request does while it waits
 * @param startNanos the clock reading at which admission began (the budget's start)
 * @param prepared   set once {@link QueueWait#beforeWaiting()} ran
 */
public record AdmissionRequest(AdmissionClass cls, QueueWait waiting, long startNanos, AtomicBoolean prepared) {

    AdmissionRequest(AdmissionClass cls, QueueWait waiting, long startNanos) {
        this(cls, waiting, startNanos, new AtomicBoolean());
    }

    /** Calls {@link QueueWait#beforeWaiting()} the first time any link queues the request. */
    void prepareOnce() throws ClientGoneException {
        if (prepared.compareAndSet(false, true)) {
            waiting.beforeWaiting();
        }
    }
}
