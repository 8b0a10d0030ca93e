package shaper.limit;

import java.time.Duration;

/**
 * Where the limiter takes time from: a monotonic clock and a timer for delayed work (cooldowns,
 * holds, headroom windows, queue timeouts). Production uses {@link SystemTimeSource}; tests use a
 * manual source so they move time instead of sleeping.
 *
 * <p>Implementations must be thread-safe, must never run a task on the calling thread from inside
 * {@link #schedule}, and should run tasks on as few threads as possible: limiter tasks are short
 * and only take the limiter's lock.
 */
public interface TimeSource {

    /** Monotonic nanoseconds, comparable only with other values from the same source. */
    long nanoTime();

    /**
     * The wall clock, for deadlines compared with an upstream's {@code Retry-After} dates. The
     * system clock by default; a test source may move it with its monotonic time.
     */
    default java.time.Instant wallClock() {
        return java.time.Instant.now();
    }

    /**
     * Runs {@code task} once, {@code delay} from now, on a timer thread.
     *
     * @param delay not null, not negative
     * @return a handle whose {@link Cancellable#cancel()} prevents the task if it has not started
     */
    Cancellable schedule(Duration delay, Runnable task);

    /** A pending timer task. */
    @FunctionalInterface
    interface Cancellable {
        /** Best effort: a task already running or finished is unaffected. Idempotent. */
        void cancel();
    }
}
