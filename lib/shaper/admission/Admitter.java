package shaper.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * Takes the slots of an {@link AdmissionClass}, in chain order, within one {@code -queue-timeout}
 * budget.
 *
 * <pre>
 * enqueue(route or default, depth) ──granted──▶ enqueue(global, depth) ──granted──▶ Slots
 *        │ queued                                      │ queued
 *        ▼                                             ▼
 *   beforeWaiting() once, then wait: ticks every interval, cancel when the client is gone,
 *   QueueTimeoutException when the budget is spent; permits already taken are released
 * </pre>
 *
 * FIFO order holds per limiter (see {@code shaper.limit}); a request waiting on the global limiter
 * keeps its route slot, as in the original tool.
 */
public final class Admitter {
    private final AdmissionConfig config;
    private final TimeSource time;
    private final DisconnectWatcher watcher;
    /** Tickets waiting in a queue now, so a shutdown can fail them all. */
    private final Set<Ticket> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;

    public Admitter(AdmissionConfig config, TimeSource time, DisconnectWatcher watcher) {
        this.config = config;
        this.time = time;
        this.watcher = watcher;
    }

    /**
     * Waits for every slot of {@code cls}.
     *
     * @throws AdmissionException   queue full (429), timeout (504) or cancelled because the client left
     * @throws ClientGoneException  the client left, noticed while preparing or ticking
     */
    public Slots admit(AdmissionClass cls, QueueWait wait) throws AdmissionException, ClientGoneException, InterruptedException {
        long start = time.nanoTime();
        long budget = config.queueTimeout().isZero() ? Long.MAX_VALUE : config.queueTimeout().toNanos();
        List<Permit> held = new ArrayList<>(cls.chain().size());
        boolean[] prepared = {false};
        boolean ok = false;
        try {
            for (Limiter limiter : cls.chain()) {
                Ticket ticket = limiter.enqueue(config.queueDepth());
                held.add(ticket.queued() ? waitFor(ticket, wait, prepared, start, budget) : ticket.await(Duration.ZERO));
            }
            ok = true;
            return new Slots(cls, held, config);
        } finally {
            if (!ok) {
                held.forEach(Permit::release);
            }
        }
    }

    /**
     * Fails every queued request, and every request that would queue from now on, with the queue's
     * own timeout answer: the proxy is stopping and will not admit them. Requests holding slots go on.
     */
    public void drain() {
        draining = true;
        waiting.forEach(Ticket::cancel);
    }

    private Permit waitFor(Ticket ticket, QueueWait wait, boolean[] prepared, long start, long budget)
            throws AdmissionException, ClientGoneException, InterruptedException {
        waiting.add(ticket);
        try {
            if (draining) {
                ticket.cancel();
            }
            return waitInQueue(ticket, wait, prepared, start, budget);
        } catch (QueueCancelledException e) {
            if (draining) {
                throw new QueueTimeoutException("shutdown", Duration.ofNanos(time.nanoTime() - start));
            }
            throw e;
        } finally {
            waiting.remove(ticket);
        }
    }

    private Permit waitInQueue(Ticket ticket, QueueWait wait, boolean[] prepared, long start, long budget)
            throws AdmissionException, ClientGoneException, InterruptedException {
        try (DisconnectWatcher.Registration ignored = watcher.watch(wait::clientGone, ticket::cancel)) {
            if (!prepared[0]) {
                prepared[0] = true;
                wait.beforeWaiting();
            }
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

    /** The slots of a request that needs none (passthrough without a global limiter, or {@code :unlimited}). */
    public Slots unlimited(AdmissionClass cls) {
        return new Slots(cls, List.of(), config);
    }
}
