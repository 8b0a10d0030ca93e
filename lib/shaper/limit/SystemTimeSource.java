package shaper.limit;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The production {@link TimeSource}: {@link System#nanoTime()} and one daemon timer thread shared
 * by every limiter of a server. Ten thousand queued requests cost ten thousand entries in the
 * timer's heap, not ten thousand threads; cancelled entries are removed at once so long queue
 * timeouts do not accumulate.
 *
 * <p>Create one per server and {@link #close()} it on shutdown. After close, {@link #schedule}
 * throws {@link java.util.concurrent.RejectedExecutionException}.
 */
public final class SystemTimeSource implements TimeSource, AutoCloseable {
    private final ScheduledThreadPoolExecutor timer;

    /** Starts the timer thread, named {@code threadName}. */
    public SystemTimeSource(String threadName) {
        timer = new ScheduledThreadPoolExecutor(1, r -> Thread.ofPlatform().daemon().name(threadName).unstarted(r));
        timer.setRemoveOnCancelPolicy(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> future;
        try {
            future = timer.schedule(() -> runReporting(task), Durations.saturatedNanos(delay), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // closed: the process is stopping, and a handler cut by the stop is finishing
            return () -> { };
        }
        return () -> future.cancel(false);
    }

    /** Stops the timer thread; pending tasks are dropped. */
    @Override
    public void close() {
        timer.shutdownNow();
    }

    // The executor would otherwise hide a failing task inside its discarded future.
    private static void runReporting(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e);
        }
    }
}
