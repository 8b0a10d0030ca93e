package shaper.limit;

import java.time.Duration;

import shaper.config.GoDuration;

/** {@link Ticket#await(Duration)} ran out of time; the waiter has left the queue and holds no slot. */
public final class QueueTimeoutException extends AdmissionException {
    /** Public for a queue that is failed as a whole (the proxy shutting down) and for cluster limiters. */
    public QueueTimeoutException(String limiter, Duration timeout) {
        super(limiter, "queue timeout after " + GoDuration.format(timeout));
    }
}
