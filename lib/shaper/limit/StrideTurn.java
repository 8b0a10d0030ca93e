package shaper.limit;

/**
 * What both levels of a {@link FairQueue} schedule by (a class's lane, a client's line): a pass that
 * grows by {@link #STRIDE} / weight per grant, a weight, and the arrival of the oldest waiter.
 * Guarded by the owning limiter's lock.
 */
abstract class StrideTurn {
    /** Pass units per grant at weight 1; at {@link QueueClass#MAX_WEIGHT} the stride still has 1048 units. */
    static final long STRIDE = 1L << 20;

    long pass;
    /** The share this turn is served in proportion to, 1..{@link QueueClass#MAX_WEIGHT}. */
    int weight;

    StrideTurn(int weight) {
        this.weight = weight;
    }

    /** Takes a turn: the pass moves on by the stride of this weight. */
    final void served() {
        pass += STRIDE / weight;
    }

    abstract long headArrival();

    /** Served before {@code other}: smaller pass, then heavier, then the older head. */
    final boolean before(StrideTurn other) {
        if (pass != other.pass) {
            return pass < other.pass;
        }
        if (weight != other.weight) {
            return weight > other.weight;
        }
        return headArrival() < other.headArrival();
    }
}
