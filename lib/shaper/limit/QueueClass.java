package shaper.limit;

import java.util.Objects;

/**
 * A priority class as the limiter sees it: a name and a weight. Waiters of one class are served in
 * arrival order; classes share returning slots in proportion to their weights while they all have
 * waiters (see {@link FairQueue}). A limiter that only ever sees {@link #DEFAULT} is a plain FIFO.
 *
 * @param name   shown in snapshots and metrics; not blank
 * @param weight relative share of slots while classes compete, 1..{@value #MAX_WEIGHT}
 */
public record QueueClass(String name, int weight) {
    /** The largest weight: keeps the scheduler's stride arithmetic exact to well under 0.1 %. */
    public static final int MAX_WEIGHT = 1000;

    /** The one class of a limiter when no classes are declared. */
    public static final QueueClass DEFAULT = new QueueClass("default", 1);

    public QueueClass {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name: blank (expected: a class name)");
        }
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight: " + weight + " (expected: 1.." + MAX_WEIGHT + ")");
        }
    }
}
