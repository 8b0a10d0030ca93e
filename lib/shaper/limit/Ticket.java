package shaper.limit;

import java.time.Duration;

/**
 * A place in one limiter's queue, or a slot already granted to it. Returned by
 * {@link Limiter#enqueue(int)}.
 *
 * <p>Lifecycle: {@code queued → granted → claimed}; from {@code queued} or {@code granted} it can
 * instead end {@code cancelled} (by {@link #cancel()} or interruption), {@code timed out} (by
 * {@link #await(Duration)}) or, from {@code queued}, {@code refused} (displaced by a heavier class). A granted slot that is cancelled before it is claimed goes back to the
 * limiter unused: no cooldown, the next waiter gets it. Every ticket must end claimed, cancelled or
 * timed out, or its slot leaks; calling {@link #cancel()} in a {@code finally} is always safe because
 * it is a no-op once the permit was claimed.
 *
 * <p>{@link #cancel()} may be called from any thread; {@code await}/{@code poll} belong to one
 * waiting thread.
 */
public interface Ticket {

    /**
     * Waits for the slot and claims it.
     *
     * @param timeout how long to wait; {@link Duration#ZERO} waits forever. Not null, not negative.
     * @return the claimed permit, at once if the slot was already granted
     * @throws QueueTimeoutException the timeout passed first; the ticket left the queue
     * @throws QueueCancelledException the ticket was cancelled first
     * @throws QueueFullException a heavier class's arrival took this waiter's place in a full queue;
     *     the ticket left the queue
     * @throws InterruptedException the thread was interrupted while waiting; the ticket is cancelled
     *     (a slot granted meanwhile goes back unused)
     * @throws IllegalStateException the permit was already claimed
     * @throws LimiterUnavailableException a cluster limiter lost its store while this ticket waited and
     *     fails closed; the ticket left the queue ({@link FifoLimiter}'s tickets never throw it)
     */
    Permit await(Duration timeout) throws QueueTimeoutException, QueueCancelledException, QueueFullException,
            LimiterUnavailableException, InterruptedException;

    /**
     * Waits up to {@code wait} for the slot without giving up the place in the queue; for a caller
     * that does periodic work (queue-wait comments) between waits.
     *
     * @param wait how long to wait; {@link Duration#ZERO} only checks. Not null, not negative.
     * @return the claimed permit, or {@code null} if the ticket is still queued
     * @throws QueueCancelledException the ticket was cancelled
     * @throws QueueFullException as for {@link #await(Duration)}
     * @throws InterruptedException as for {@link #await(Duration)}
     * @throws IllegalStateException the permit was already claimed, or an earlier {@code await} timed out
     */
    Permit poll(Duration wait) throws QueueCancelledException, QueueFullException, LimiterUnavailableException,
            InterruptedException;

    /**
     * Leaves the queue, or gives back a granted but unclaimed slot unused. Any thread; idempotent.
     *
     * @return {@code true} if this call cancelled the ticket; {@code false} if it had already been
     *     claimed, cancelled or timed out
     */
    boolean cancel();

    /** {@code true} while the ticket waits in the queue (not yet granted, cancelled or timed out). */
    boolean queued();
}
