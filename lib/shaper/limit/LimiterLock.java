package shaper.limit;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The one lock of a {@link FifoLimiter}: it guards the limiter's {@link SlotLedger}, its queue and
 * every {@link Waiter}'s state, whose conditions are made from it. Bookkeeping under it is short
 * (O(classes)); {@link #run} and {@link #get} hold it for one such step.
 */
final class LimiterLock extends ReentrantLock {
    /** Runs {@code step} holding the lock. */
    void run(Runnable step) {
        lock();
        try {
            step.run();
        } finally {
            unlock();
        }
    }

    /** Runs {@code step} holding the lock and answers what it answers. */
    <T> T get(Supplier<T> step) {
        lock();
        try {
            return step.get();
        } finally {
            unlock();
        }
    }
}
