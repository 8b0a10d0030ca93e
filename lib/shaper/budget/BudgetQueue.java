package shaper.budget;

import java.time.Duration;
import java.util.Map;

import shaper.limit.FairQueue;
import shaper.limit.QueuePlace;
import shaper.limit.QueueFullException;

/**
 * The requests waiting for one {@link TokenBudget}'s tokens: one lane per priority class and one FIFO
 * per client inside it, served weighted fair ({@link FairQueue}), and one head at a time. The head is whoever the fair order
 * serves next; it alone asks the buckets, and while its cost does not fit nobody behind it (of any
 * class) is granted, so a large request is never starved by small ones. An arrival of a class
 * whose turn comes first becomes the head at once (and may fit where the old head did not); the
 * old head keeps its place in its class. With a shared store the head's cluster-wide reservation
 * follows the head: it is left when another ticket becomes the head. Guarded by the budget's lock.
 */
final class BudgetQueue {
    private final FairQueue<BudgetTicket> fair = new FairQueue<>();
    private final BucketStore store;
    /** The ticket number whose reservation the store may hold (the last head that was blocked), 0 for none. */
    private long reserving;

    BudgetQueue(BucketStore store) {
        this.store = store;
    }

    int size() {
        return fair.size();
    }

    boolean isEmpty() {
        return fair.size() == 0;
    }

    /** The ticket whose turn it is, or null. */
    BudgetTicket head() {
        return fair.peek();
    }

    /** Queues {@code t}; {@code reserved} when the store has just blocked (and so reserved for) it. */
    void add(BudgetTicket t, boolean reserved) {
        fair.add(t);
        if (reserved) {
            reserving = t.number;
        }
    }

    /** Unlinks a queued ticket (it left, or was refused); a reservation it held goes. */
    void remove(BudgetTicket t) {
        fair.remove(t);
        if (reserving == t.number) {
            store.leave(t.number);
            reserving = 0;
        }
    }

    /**
     * Makes room for an arrival at {@code place} when its client already has its own bound of
     * waiters, or {@code maxDepth} (0: unbounded) waiters already queue, counting the arrival as a
     * waiter: whom {@link FairQueue#displacedBy} names goes, the arrival itself (it is refused, and
     * nothing is queued) or a waiter (refused; the arrival takes its place). Either refusal says
     * when the head's tokens are expected (room comes when its wait is over).
     *
     * @throws BucketStore.Unavailable as {@link BucketStore#wouldWait}
     */
    void makeRoom(String budget, int maxDepth, QueuePlace place) throws QueueFullException {
        if (size() == 0) {
            return;
        }
        BudgetTicket head = head();
        // asked only when someone is refused: a shared store answers over the network
        FairQueue.Refusal refusal = (queued, bound) -> new QueueFullException(budget, queued, bound,
                Duration.ofNanos(store.wouldWait(head.cost)));
        BudgetTicket victim = fair.displacedBy(maxDepth, place.cls(), place.client(), refusal);
        if (victim != null) {
            QueueFullException full = refusal.full(maxDepth, maxDepth);
            remove(victim);
            victim.refused(full);
        }
    }

    /**
     * Grants the head if its cost fits now (unlinking it; then the caller tries the next head);
     * otherwise returns what blocks it and the head waits for that.
     *
     * @throws BucketStore.Unavailable a shared store fails closed; nothing was granted
     */
    BucketStore.Block tryHead() {
        BudgetTicket head = fair.peek();
        if (reserving != 0 && reserving != head.number) {
            store.leave(reserving); // the fair order chose another head
            reserving = 0;
        }
        BucketStore.Block block = store.take(head.cost, head.number);
        if (block != null) {
            reserving = head.number;
            head.waitFor(block.what());
            return block;
        }
        reserving = 0;
        fair.poll(); // the head peeked above: nothing changed in between
        head.granted();
        return null;
    }

    /** The store is away and fails closed: every waiter fails with {@code reason}. */
    void failAll(String reason) {
        reserving = 0;
        for (BudgetTicket t = fair.poll(); t != null; t = fair.poll()) {
            t.failed(reason);
        }
    }

    /** Waiters per class name, for every class seen. */
    Map<String, Integer> queuedByClass() {
        return fair.queuedByClass();
    }
}
