package shaper.cluster;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

import shaper.limit.TimeSource;

/**
 * The delayed work of one {@link ClusterLimiter}: the renewal every third of the lease, one-shot
 * pumps when a held or cooling slot comes back, and the pump at the next expiry Redis reported,
 * kept to one pending task (the earliest). Tasks run on virtual threads, never on the shared timer
 * thread, because they make Redis calls. Nothing is scheduled once the link is closed or the timer
 * is shut down (the server is stopping; leases then simply expire in Redis). Thread-safe.
 */
final class LeaseTimers {
    private final TimeSource time;
    private final BooleanSupplier closed;
    private final Object lock = new Object();
    private long pendingAt; // guarded by lock: nanoTime of the pending earliest-expiry task, 0 = none

    LeaseTimers(TimeSource time, BooleanSupplier closed) {
        this.time = time;
        this.closed = closed;
    }

    /** Runs {@code task} after {@code delay} on a virtual thread named {@code thread}. */
    void later(Duration delay, String thread, Runnable task) {
        if (closed.getAsBoolean()) {
            return;
        }
        try {
            time.schedule(delay, () -> Thread.ofVirtual().name(thread).start(task));
        } catch (RejectedExecutionException e) {
            // the timer is closed: the server is stopping
        }
    }

    /** Runs {@code task} every {@code period} until closed (the next run is scheduled when one ends). */
    void every(Duration period, String thread, Runnable task) {
        later(period, thread, () -> {
            try {
                task.run();
            } finally {
                every(period, thread, task);
            }
        });
    }

    /**
     * Runs {@code task} after {@code delay} unless a task of this kind is already due sooner; a
     * later one that is superseded still runs (a spare pump is harmless), it just does not block
     * an earlier one from being scheduled.
     */
    void earliest(Duration delay, String thread, Runnable task) {
        long at = time.nanoTime() + delay.toNanos();
        synchronized (lock) {
            if (pendingAt != 0 && pendingAt - at <= 0 && pendingAt - time.nanoTime() > 0) {
                return;
            }
            pendingAt = at;
        }
        later(delay, thread, () -> {
            synchronized (lock) {
                if (pendingAt == at) {
                    pendingAt = 0;
                }
            }
            task.run();
        });
    }
}
