package shaper.limit;

import java.time.Duration;

/** The {@link Permit} of a {@link FifoLimiter}; its state lives in the limiter, under the limiter's lock. */
final class Grant implements Permit {
    private final FifoLimiter limiter;
    /** The adaptive limit's epoch when this slot was granted (0 for a fixed limit). */
    final long epoch;
    // Written under the limiter's lock; volatile so released() needs no lock.
    private volatile boolean released;

    Grant(FifoLimiter limiter, long epoch) {
        this.limiter = limiter;
        this.epoch = epoch;
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
