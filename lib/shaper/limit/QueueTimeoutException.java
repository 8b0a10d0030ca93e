package shaper.limit;

import java.time.Duration;

import shaper.config.GoDuration;

/** {@link Ticket#await(Duration)} ran out of time; the waiter has left the queue and holds no slot. */
public final class QueueTimeoutException extends AdmissionException {
    /** Public for a queue that is failed as a whole (the proxy shutting down) and for cluster limiters. */
    public QueueTimeoutException(String limiter, Duration timeout) {
        this(limiter, timeout, false);
    }

    private final boolean stopping;

    private QueueTimeoutException(String limiter, Duration timeout, boolean stopping) {
        super(limiter, "queue timeout after " + GoDuration.format(timeout));
        this.stopping = stopping;
    }

    /** The queue was failed as a whole after {@code waited}: the proxy is stopping. */
    public static QueueTimeoutException stopping(Duration waited) {
        return new QueueTimeoutException("shutdown", waited, true);
    }

    /** True when the proxy is stopping rather than the wait having run out. */
    public boolean stopping() {
        return stopping;
    }
}
