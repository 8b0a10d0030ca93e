package shaper.budget;

/**
 * One per-minute budget as Anthropic documents its limits: a bucket of {@code capacity} tokens
 * that refills continuously at {@code capacity} per minute and starts full. Taking more than the
 * level is allowed (the level goes negative: a debt later requests wait out), so a request larger
 * than the whole bucket is admitted once the bucket is full instead of never. Not thread-safe:
 * guarded by its owner (a {@link TokenBudget}'s lock, the fixture server's monitor). Time is in the budget's monotonic nanoseconds.
 */
public final class TokenBucket {
    private static final double NANOS_PER_MINUTE = 60e9;

    private long capacity;
    private double level;
    private long refilledAt;

    public TokenBucket(long capacity, long now) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.capacity = capacity;
        this.level = capacity;
        this.refilledAt = now;
    }

    public long capacity() {
        return capacity;
    }

    public double level(long now) {
        refill(now);
        return level;
    }

    /** What a request of {@code cost} needs in the bucket: its cost, or the whole bucket when it is larger. */
    private double need(long cost) {
        return Math.min(cost, capacity);
    }

    public boolean fits(long cost, long now) {
        refill(now);
        return level >= need(cost);
    }

    public void take(long cost, long now) {
        refill(now);
        level -= cost;
    }

    /** Gives back ({@code delta < 0}) or takes more ({@code delta > 0}) after the fact; never above capacity. */
    public void adjust(long delta, long now) {
        refill(now);
        level = Math.min(capacity, level - delta);
    }

    /** Nanoseconds until {@code cost} fits, 0 when it does now. */
    public long nanosUntil(long cost, long now) {
        refill(now);
        double missing = need(cost) - level;
        return missing <= 0 ? 0 : (long) Math.ceil(missing * NANOS_PER_MINUTE / capacity);
    }

    /**
     * The upstream's own statement: its limit replaces the capacity, and what it says remains caps
     * the level. It never raises the level: answers finish out of order, and one written before
     * later requests arrived upstream would hand their tokens out a second time; refill and
     * reconciliation raise it.
     */
    public void restate(long limit, long remaining, long now) {
        refill(now);
        if (limit >= 1) {
            capacity = limit;
        }
        level = Math.min(capacity, remaining >= 0 ? Math.min(level, remaining) : level);
    }

    /** Nanoseconds until the bucket is full again. */
    public long nanosUntilFull(long now) {
        refill(now);
        return level >= capacity ? 0 : (long) Math.ceil((capacity - level) * NANOS_PER_MINUTE / capacity);
    }

    private void refill(long now) {
        long elapsed = now - refilledAt;
        if (elapsed > 0) {
            level = Math.min(capacity, level + elapsed * capacity / NANOS_PER_MINUTE);
            refilledAt = now;
        }
    }
}
