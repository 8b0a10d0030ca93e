package shaper.limit;

/**
 * The FIFO of queued {@link Waiter}s of one class (a lane of {@link FairQueue}): an intrusive doubly linked list, so a waiter that times out or
 * is cancelled leaves in O(1) even with thousands queued. Not thread-safe: guarded by the owning
 * limiter's lock.
 */
final class WaitQueue {
    private Waiter first;
    private Waiter last;
    private int size;

    int size() {
        return size;
    }

    /** The longest-waiting waiter, or {@code null}. */
    Waiter first() {
        return first;
    }

    /** The most recent arrival, or {@code null}. */
    Waiter last() {
        return last;
    }

    void addLast(Waiter w) {
        w.prev = last;
        w.next = null;
        if (last == null) {
            first = w;
        } else {
            last.next = w;
        }
        last = w;
        size++;
    }

    /** Removes and returns the longest-waiting waiter, or {@code null}. */
    Waiter pollFirst() {
        Waiter w = first;
        if (w != null) {
            remove(w);
        }
        return w;
    }

    /** Unlinks {@code w}, which must be in this queue. */
    void remove(Waiter w) {
        if (w.prev == null) {
            first = w.next;
        } else {
            w.prev.next = w.next;
        }
        if (w.next == null) {
            last = w.prev;
        } else {
            w.next.prev = w.prev;
        }
        w.prev = null;
        w.next = null;
        size--;
    }
}
