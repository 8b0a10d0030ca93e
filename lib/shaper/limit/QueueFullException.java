package shaper.limit;

import java.time.Duration;
import java.util.Optional;

/** {@link FifoLimiter#enqueue(int)} found the waiter queue already at its depth bound; nothing was queued. */
public final class QueueFullException extends AdmissionException {
    private final int depth;
    private final Duration retryAfter;

    public QueueFullException(String limiter, int waiters, int depth) {
        this(limiter, waiters, depth, null);
    }

    /** @param retryAfter when the limiter expects room (a token budget knows its refill), or null */
    public QueueFullException(String limiter, int waiters, int depth, Duration retryAfter) {
        super(limiter, "queue full (" + waiters + " waiting, depth " + depth + ")");
        this.depth = depth;
        this.retryAfter = retryAfter;
    }

    /** When the limiter expects room, if it knows; the answer's {@code Retry-After} then says so. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** The depth bound that was reached. */
    public int depth() {
        return depth;
    }
}
