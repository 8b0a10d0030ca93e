package shaper.limit;

import java.time.Duration;

/** The {@link Permit} of a {@link FifoLimiter}; its state lives in the limiter, under the limiter's lock. */
final class Grant implements Permit {
    private final FifoLimiter limiter;
    /** The adaptive limit's epoch when this slot was granted (0 for a fixed limit). */
    final long epoch;
    /** Whom the slot was granted to: counted against that client's cap until released. */
    final QueueClient client;
    // Written under the limiter's lock; volatile so released() needs no lock.
    private volatile boolean released;

    Grant(FifoLimiter limiter, long epoch, QueueClient client) {
        this.limiter = limiter;
        this.epoch = epoch;
        this.client = client;
    }

    @Override
    public void report(LoadSample sample) {
        limiter.report(this, sample);
    }

    @Override
    public void release() {
        limiter.release(this, Duration.ZERO);
    }

    @Override
    public void releaseAfter(Duration hold) {
        limiter.release(this, Durations.requireNonNegative(hold, "hold"));
    }

    @Override
    public boolean released() {
        return released;
    }

    /** Marks the permit released; {@code false} if it already was. Caller holds the limiter's lock. */
    boolean markReleased() {
        if (released) {
            return false;
        }
        released = true;
        return true;
    }
}
