package shaper.limit;

/**
 * One client's FIFO inside one class's lane of a {@link FairQueue}; it exists only while the client
 * has waiters there. Guarded by the owning limiter's lock.
 */
final class ClientLine<T extends Queued> extends StrideTurn {
    /** The policy in force: the newest arrival's (a reload may change a client's weight or caps). */
    QueueClient client;
    final WaitQueue<T> fifo = new WaitQueue<>();

    ClientLine(QueueClient client) {
        super(client.weight());
        this.client = client;
    }

    /** The newest arrival's policy applies to the whole line. */
    void policy(QueueClient newest) {
        client = newest;
        weight = newest.weight();
    }

    @Override
    long headArrival() {
        return fifo.first().arrival;
    }

    /** Whether this line holds more waiters per unit of weight than {@code n} waiters at weight {@code w}. */
    boolean heavierThan(long n, int w) {
        return (long) fifo.size() * w > n * client.weight();
    }
}
