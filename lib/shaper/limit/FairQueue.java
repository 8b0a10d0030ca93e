package shaper.limit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The waiters of one limiter (its {@link Waiter}s, or a token budget's tickets), one FIFO lane per
 * {@link QueueClass}, served by stride scheduling (a deterministic form of weighted fair queueing).
 * Not thread-safe: guarded by the owning limiter's lock.
 *
 * <p>Each lane has a <i>pass</i>; a returning slot goes to the head of the non-empty lane with the
 * smallest pass (ties: the heavier class, then the older head), and that lane's pass grows by
 * {@code STRIDE / weight}. So while several lanes have waiters, each is served in proportion to its
 * weight: at weights 4:1 the light lane gets every fifth slot, never fewer, however many heavy
 * waiters arrive (no starvation). A lane that was empty re-enters at the current virtual time (the
 * pass of the last lane served): idle time banks no credit, so a class that was quiet cannot then
 * monopolise the slots. With one lane this is exactly a FIFO.
 *
 * <p>Overflow picks its victim by weight, not by lane pass: the newest waiter of the lightest lane
 * (ties: the newest of them).
 */
public final class FairQueue<T extends Queued> {
    /** Pass units per grant at weight 1; at {@link QueueClass#MAX_WEIGHT} the stride still has 1048 units. */
    private static final long STRIDE = 1L << 20;

    private final Map<QueueClass, Lane<T>> lanes = new LinkedHashMap<>();
    private long virtualTime;
    private long arrivals;
    private int size;

    public int size() {
        return size;
    }

    /** Appends {@code w} to its class's lane. */
    public void add(T w) {
        Lane<T> lane = lanes.computeIfAbsent(w.cls, Lane::new);
        if (lane.fifo.size() == 0) {
            lane.pass = Math.max(lane.pass, virtualTime);
        }
        w.arrival = arrivals++;
        lane.fifo.addLast(w);
        size++;
    }

    /** Unlinks {@code w}, which must be queued here. */
    public void remove(T w) {
        lanes.get(w.cls).fifo.remove(w);
        size--;
    }

    /** The waiter whose turn it is, left queued, or {@code null} when none waits. */
    public T peek() {
        Lane<T> next = nextLane();
        return next == null ? null : next.fifo.first();
    }

    /** Removes and returns the waiter whose turn it is ({@link #peek}), or {@code null} when none waits. */
    public T poll() {
        Lane<T> next = nextLane();
        if (next == null) {
            return null;
        }
        virtualTime = next.pass;
        next.pass += STRIDE / next.cls.weight();
        T w = next.fifo.pollFirst();
        size--;
        return w;
    }

    private Lane<T> nextLane() {
        Lane<T> next = null;
        for (Lane<T> lane : lanes.values()) {
            if (lane.fifo.size() > 0 && (next == null || lane.before(next))) {
                next = lane;
            }
        }
        return next;
    }

    /**
     * The waiter to refuse so that an arrival of {@code arriving} can queue in a full queue: the
     * newest waiter of the lightest class, if that class is lighter than the arrival's; else
     * {@code null}, and the arrival itself is the one refused (counted as a waiter, it is the newest
     * of a class at least as light).
     */
    public T victimFor(QueueClass arriving) {
        T victim = null;
        for (Lane<T> lane : lanes.values()) {
            T newest = lane.fifo.last();
            if (newest == null || lane.cls.weight() >= arriving.weight()) {
                continue;
            }
            if (victim == null || lane.cls.weight() < victim.cls.weight()
                    || (lane.cls.weight() == victim.cls.weight() && newest.arrival > victim.arrival)) {
                victim = newest;
            }
        }
        return victim;
    }

    /** The longest-waiting waiter of any class, or {@code null}. */
    public T oldest() {
        T oldest = null;
        for (Lane<T> lane : lanes.values()) {
            T head = lane.fifo.first();
            if (head != null && (oldest == null || head.arrival < oldest.arrival)) {
                oldest = head;
            }
        }
        return oldest;
    }

    /** Waiters per class name, for every class this limiter has seen, in first-seen order. */
    public Map<String, Integer> queuedByClass() {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Lane<T> lane : lanes.values()) {
            out.merge(lane.cls.name(), lane.fifo.size(), Integer::sum);
        }
        return out;
    }

    private static final class Lane<T extends Queued> {
        final QueueClass cls;
        final WaitQueue<T> fifo = new WaitQueue<>();
        long pass;

        Lane(QueueClass cls) {
            this.cls = cls;
        }

        /** Served before {@code other}: smaller pass, then heavier, then the older head. */
        boolean before(Lane<T> other) {
            if (pass != other.pass) {
                return pass < other.pass;
            }
            if (cls.weight() != other.cls.weight()) {
                return cls.weight() > other.cls.weight();
            }
            return fifo.first().arrival < other.fifo.first().arrival;
        }
    }
}
