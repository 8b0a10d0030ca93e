package shaper.admission;

import java.util.concurrent.atomic.AtomicBoolean;

import shaper.limit.QueuePlace;

/**
 * One request on its way through an {@link AdmissionChain}: its class, its place (the priority
 * class's lane and the client's line it waits in, in every limiter it passes), how it waits and the start of its one
 * {@code -queue-timeout} budget, shared by every link it passes. Belongs to the request's thread.
 *
 * @param cls        the limiters the request must pass
 * @param place      where it queues; {@link QueuePlace#DEFAULT} without classes and client identities
 * @param waiting    what the request does while it waits
 * @param startNanos the clock reading at which admission began (the budget's start)
 * @param prepared   set once {@link QueueWait#beforeWaiting()} ran
 */
public record AdmissionRequest(AdmissionClass cls, QueuePlace place, QueueWait waiting, long startNanos,
                               AtomicBoolean prepared) {

    AdmissionRequest(AdmissionClass cls, QueuePlace place, QueueWait waiting, long startNanos) {
        this(cls, place, waiting, startNanos, new AtomicBoolean());
    }

    /** Calls {@link QueueWait#beforeWaiting()} the first time any link queues the request. */
    void prepareOnce() throws ClientGoneException {
        if (prepared.compareAndSet(false, true)) {
            waiting.beforeWaiting();
        }
    }
}
