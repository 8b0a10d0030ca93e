package shaper.limit;

import java.time.Duration;
import java.util.Map;

/**
 * A bounded pool of concurrency slots with a queue (FIFO, or weighted fair across priority classes). {@link FifoLimiter} is the in-process
 * implementation; callers should hold this type so a cluster-wide implementation can replace it.
 * Implementations are thread-safe.
 */
public interface Limiter {

    /** Shown in snapshots and error messages. */
    String name();

    /**
     * Takes a free slot, or joins the end of the queue.
     *
     * @param maxDepth the most waiters allowed, counting this one; 0 = unbounded. A request that gets
     *     a free slot is not a waiter and is never refused.
     * @return a ticket, already granted when a slot was free (a slot is free only when nobody waits)
     * @throws QueueFullException {@code maxDepth} waiters were already queued; nothing was queued
     * @throws LimiterUnavailableException the limiter cannot admit anyone now (a cluster limiter whose
     *     store is unreachable, failing closed); nothing was queued. {@link FifoLimiter} never throws it.
     */
    default Ticket enqueue(int maxDepth) throws QueueFullException, LimiterUnavailableException {
        return enqueue(maxDepth, QueueClass.DEFAULT);
    }

    /**
     * {@link #enqueue(int)} for a request of priority class {@code cls}: waiters of one class are
     * served in arrival order, classes in proportion to their weights, and a full queue refuses the
     * newest waiter of the lightest class (the arrival counted as a waiter). An anonymous client.
     *
     * @param cls not null
     */
    default Ticket enqueue(int maxDepth, QueueClass cls) throws QueueFullException, LimiterUnavailableException {
        return enqueue(maxDepth, cls, QueueClient.ANONYMOUS);
    }

    /**
     * {@link #enqueue(int, QueueClass)} for a request of {@code client}: inside a class, clients are
     * served in proportion to their weights and each client's requests in arrival order; a client's
     * {@code concurrency} and {@code queueDepth} bound it alone. The one method implementations
     * write; the shorter forms queue as the default class and an anonymous client.
     *
     * @param client not null
     */
    Ticket enqueue(int maxDepth, QueueClass cls, QueueClient client) throws QueueFullException, LimiterUnavailableException;

    /** A free slot, or {@code null} when none is free (then others may be waiting: never barges). */
    Permit tryAcquire() throws LimiterUnavailableException;

    /**
     * The upstream answered 429 for a request holding one of this limiter's slots: withhold one
     * slot for the adaptive-headroom window (restarting it if it runs). No-op when headroom is off.
     */
    void onRateLimited();

    /** The current counts, for the TUI and metrics. */
    LimiterSnapshot snapshot();

    /** The counts with held slots and waiters per class; a limiter that keeps neither reports none. */
    default LimiterView view() {
        return new LimiterView(snapshot(), 0, Map.of());
    }

    /**
     * {@link #enqueue(int)} then {@link Ticket#await(Duration)}, for callers that never cancel from
     * another thread. No ticket outlives a failure.
     *
     * @param timeout {@link Duration#ZERO} waits forever; not null, not negative
     */
    default Permit acquire(int maxDepth, Duration timeout) throws AdmissionException, InterruptedException {
        Durations.requireNonNegative(timeout, "timeout");
        return enqueue(maxDepth).await(timeout);
    }
}
