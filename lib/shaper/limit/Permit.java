package shaper.limit;

import java.time.Duration;

/**
 * One slot of a {@link FifoLimiter}, held from grant until released. Releasing never blocks: holds
 * and the limiter's release cooldown run on the limiter's timer. Thread-safe; release is idempotent.
 */
public interface Permit {

    /** Releases the slot; it re-enters the pool after the limiter's release cooldown. Second and later calls do nothing. */
    void release();

    /**
     * Keeps the slot held for {@code hold}, then releases it with the release cooldown on top (the
     * failure hold, the breaker's phantom penalty, the cancel cooldown). The slot counts as in use
     * during the hold. {@link Duration#ZERO} is {@link #release()}. Does nothing if already released.
     *
     * @param hold not null, not negative
     */
    void releaseAfter(Duration hold);

    /**
     * Tells the limiter how the upstream answered the exchange holding this slot, before it is
     * released: an adaptive limit learns from it; a fixed limit ignores it. Call at most once.
     *
     * @param sample not null
     */
    default void report(LoadSample sample) {
    }

    /** {@code true} once {@link #release()} or {@link #releaseAfter(Duration)} was called, even while a hold runs. */
    boolean released();
}
