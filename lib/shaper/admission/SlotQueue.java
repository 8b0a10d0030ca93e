package shaper.admission;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import shaper.limit.AdmissionException;
import shaper.limit.Limiter;
import shaper.limit.Permit;
import shaper.limit.QueueCancelledException;
import shaper.limit.QueueTimeoutException;
import shaper.limit.Ticket;
import shaper.limit.TimeSource;

/**
 * Waits for one limiter's slot within the request's one {@code -queue-timeout} budget; every
 * limiter link of a provider shares one queue, so a shutdown drains them all.
 *
 * <pre>
 * enqueue(limiter, depth) ──granted──▶ Permit
 *        │ queued
 *        ▼
 *   beforeWaiting() once per request, then wait: ticks every interval, cancel when the client is
 *   gone, QueueTimeoutException when the budget is spent
 * </pre>
 *
 * FIFO order holds per limiter, priority class and client (see {@code shaper.limit}); a request waiting on a later limiter
 * keeps the slots it already holds: given back, they would go to requests behind it, and it would
 * have to queue for them again.
 */
final class SlotQueue {
    private final AdmissionConfig config;
    private final TimeSource time;
    private final DisconnectWatcher watcher;
    /** Tickets waiting in a queue now, so a shutdown can fail them all. */
    private final Set<Ticket> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;

    SlotQueue(AdmissionConfig config, TimeSource time, DisconnectWatcher watcher) {
        this.config = config;
        this.time = time;
        this.watcher = watcher;
    }

    TimeSource time() {
        return time;
    }

    /**
     * Takes a slot of {@code limiter}, waiting in its FIFO queue if needed.
     *
     * @throws AdmissionException   queue full, timeout, cancelled because the client left, or the limiter is unavailable
     * @throws ClientGoneException  the client left, noticed while preparing or ticking
     */
    Permit take(Limiter limiter, AdmissionRequest request) throws AdmissionException, ClientGoneException, InterruptedException {
        Ticket ticket = limiter.enqueue(config.queueDepth(), request.place().cls(), request.place().client());
        if (!ticket.queued()) {
            return ticket.await(Duration.ZERO);
        }
        // counted just after joining, this request included: its place in line then (a heavier class may still pass it)
        request.waiting().queued(limiter.name(), Math.max(1, limiter.snapshot().waiters()));
        return waitFor(ticket, request);
    }

    /**
     * Fails every queued request, and every request that would queue from now on, with the queue's
     * own timeout answer: the proxy is stopping and will not admit them. Requests holding slots go on.
     */
    void drain() {
        draining = true;
        waiting.forEach(Ticket::cancel);
    }

    private Permit waitFor(Ticket ticket, AdmissionRequest request)
            throws AdmissionException, ClientGoneException, InterruptedException {
        waiting.add(ticket);
        try {
            if (draining) {
                ticket.cancel();
            }
            return waitInQueue(ticket, request);
        } catch (QueueCancelledException e) {
            if (draining) {
                throw QueueTimeoutException.stopping(Duration.ofNanos(time.nanoTime() - request.startNanos()));
            }
            throw e;
        } finally {
            waiting.remove(ticket);
        }
    }

    private Permit waitInQueue(Ticket ticket, AdmissionRequest request)
            throws AdmissionException, ClientGoneException, InterruptedException {
        QueueWait wait = request.waiting();
        long start = request.startNanos();
        long budget = config.queueTimeout().isZero() ? Long.MAX_VALUE : config.queueTimeout().toNanos();
        if (wait.patience().isPositive()) {
            // a request that may move to another provider waits here no longer than it is willing to
            budget = Math.min(budget, wait.patience().toNanos());
        }
        try (DisconnectWatcher.Registration ignored = watcher.watch(wait::clientGone, ticket::cancel)) {
            request.prepareOnce();
            long interval = wait.tickInterval().toNanos();
            long nextTick = interval > 0 ? (time.nanoTime() - start) + interval : Long.MAX_VALUE;
            while (true) {
                long waited = time.nanoTime() - start;
                long left = budget == Long.MAX_VALUE ? Long.MAX_VALUE : budget - waited;
                if (left <= nextTick - waited) {
                    return ticket.await(left == Long.MAX_VALUE ? Duration.ZERO : Duration.ofNanos(Math.max(1, left)));
                }
                Permit p = ticket.poll(Duration.ofNanos(Math.max(1, nextTick - waited)));
                if (p != null) {
                    return p;
                }
                wait.tick(Duration.ofNanos(time.nanoTime() - start));
                nextTick += interval;
            }
        } catch (ClientGoneException | AdmissionException | InterruptedException | RuntimeException e) {
            ticket.cancel();
            throw e;
        }
    }
}
