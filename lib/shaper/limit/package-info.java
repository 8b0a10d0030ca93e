/**
 * Concurrency limiting: a {@link shaper.limit.Limiter} bounds how many requests hold a slot at
 * once and queues the rest, fairly across priority classes ({@link shaper.limit.QueueClass}). Route, group, default-pool, global and large-request limits are all
 * limiters; {@link shaper.limit.FifoLimiter} is the in-process implementation, taking time from
 * an injected {@link shaper.limit.TimeSource}. {@code shaper.cluster} implements the same
 * contract with slots shared through Redis; only it throws
 * {@link shaper.limit.LimiterUnavailableException}.
 *
 * <h2>Admission</h2>
 * <pre>
 *   enqueue(depth) ──slot idle?──yes──► Ticket(granted) ──await──► Permit
 *        │ no
 *        ├─ waiters >= depth (depth > 0) ──► the newest waiter of the lightest class (inside it, of the
 *        │                                  client with most waiters per weight), the arrival counted,
 *        │                                  gets QueueFullException (429); so does an arrival of a client
 *        │                                  at its own queueDepth
 *        ▼
 *   queued (lane of its class) ──slot returns, WFQ picks a lane, its head──► granted ──await claims──► Permit
 *        │  await timeout ──────► left queue, QueueTimeoutException        (504)
 *        │  cancel() / interrupt ► left queue, QueueCancelledException     (503)
 *        └─ cancel() after grant, before claim ► slot goes back unused, no cooldown
 *
 *   Permit.release()            in use ─► cooling (releaseCooldown) ─► pool
 *   Permit.releaseAfter(hold)   in use (hold) ─► cooling (releaseCooldown) ─► pool
 *   "pool": headroom absorbs it, else the waiter whose turn it is (among clients under their cap) is granted, else the slot is idle
 * </pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li><b>Weighted fair, FIFO per client.</b> A returning slot goes to the longest-waiting live waiter
 *     of the client whose turn it is inside the class whose turn it is ({@link shaper.limit.FairQueue}:
 *     while several classes wait, each gets at least its weight's share, and inside a class so does each
 *     {@link shaper.limit.QueueClient}; with one class and one client this is strict FIFO per limiter).
 *     A client at its {@code concurrency} cap is passed over: its waiters keep their place while
 *     slots it may not take stay idle for others, and its line moves on when one of its slots is
 *     released.
 *     A slot is idle only while no waiter under its client's cap waits, so a new arrival ({@code enqueue} or
 *     {@code tryAcquire}) never takes a slot ahead of an existing waiter, even at the instant a
 *     slot frees: the hand-over to the head of the queue and every arrival are serialized by one
 *     lock. Waiters that time out, are cancelled or interrupted leave the queue at once.</li>
 * <li><b>Bound.</b> At most {@code limit} slots are ever in use; slots in use include holds and
 *     grants not yet claimed. Headroom lowers the effective limit by one (never below 1).</li>
 * <li><b>Race-free cancellation.</b> Grant, cancel, timeout and interrupt of one ticket are
 *     ordered by the limiter's lock: exactly one wins. A cancel that loses to a grant, but comes
 *     before the permit is claimed, returns the slot as never used (no cooldown, next waiter).</li>
 * <li><b>Depth bound</b> counts waiters only: a request that gets a free slot never waits and is
 *     never refused.</li>
 * <li><b>Release</b> is idempotent and never blocks: holds and cooldowns run on the
 *     {@link shaper.limit.TimeSource}'s timer.</li>
 * <li><b>Adaptive headroom.</b> {@code onRateLimited()} withholds one slot for the window; every
 *     call restarts the window; with no idle slot, the next slot that returns is absorbed. When
 *     the window ends the slot is restored (and handed to a waiter, if any).</li>
 * <li><b>Adaptive limit</b> (optional, {@link shaper.limit.AdaptiveConcurrency}): the configured
 *     limit becomes a ceiling; {@link shaper.limit.Permit#report} samples move the limit in force by
 *     AIMD ({@code AdaptiveLimit}). A lower limit revokes nothing: slots retire as they come back.
 *     Headroom applies below the adaptive limit and never takes its last slot.</li>
 * </ul>
 *
 * <h2>Cost and threads</h2>
 * All classes are thread-safe. A waiter is a small object with its own condition on the
 * limiter's lock: a waiting virtual thread unmounts, nothing polls, and timeouts are entries in
 * the timer's heap. Observers read {@link shaper.limit.LimiterSnapshot}s only.
 */
package shaper.limit;
