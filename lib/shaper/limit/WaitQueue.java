package shaper.limit;

/**
 * The FIFO of queued waiters of one class (a lane of {@link FairQueue}): an intrusive doubly linked
 * list through {@link Queued}'s links, so a waiter that times out or is cancelled leaves in O(1)
 * even with thousands queued. Not thread-safe: guarded by the owning limiter's lock.
 */
final class WaitQueue<T extends Queued> {
    private T first;
    private T last;
    private int size;

    int size() {
        return size;
    }

    /** The longest-waiting waiter, or {@code null}. */
    T first() {
        return first;
    }

    /** The most recent arrival, or {@code null}. */
    T last() {
        return last;
    }

    void addLast(T w) {
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
    T pollFirst() {
        T w = first;
        if (w != null) {
            remove(w);
        }
        return w;
    }

    /** Unlinks {@code w}, which must be in this queue. */
    @SuppressWarnings("unchecked") // every link of this list is a T: only addLast links
    void remove(T w) {
        if (w.prev == null) {
            first = (T) w.next;
        } else {
            w.prev.next = w.next;
        }
        if (w.next == null) {
            last = (T) w.prev;
        } else {
            w.next.prev = w.prev;
        }
        w.prev = null;
        w.next = null;
        size--;
    }
}
