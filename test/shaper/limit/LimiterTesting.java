package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Shared test plumbing: bounded polling, waiting threads, result unwrapping. */
final class LimiterTesting implements AutoCloseable {
    static final Duration BOUND = Duration.ofSeconds(5);

    private final ExecutorService threads;

    private LimiterTesting(ExecutorService threads) {
        this.threads = threads;
    }

    /** Runs tasks on virtual threads, as the server runs request handlers. */
    static LimiterTesting virtualThreads() {
        return new LimiterTesting(Executors.newVirtualThreadPerTaskExecutor());
    }

    /** Runs tasks on platform threads: preemptible, so a spinning racer cannot starve the others. */
    static LimiterTesting platformThreads() {
        return new LimiterTesting(Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().name("limit-test-", 0).factory()));
    }

    /** Awaits {@code ticket} on a new thread. */
    Future<Permit> awaitAsync(Ticket ticket, Duration timeout) {
        return threads.submit(() -> ticket.await(timeout));
    }

    /** Polls {@code ticket} on a new thread. */
    Future<Permit> pollAsync(Ticket ticket, Duration wait) {
        return threads.submit(() -> ticket.poll(wait));
    }

    /** Runs {@code task} on a new thread. */
    Future<?> run(ThrowingRunnable task) {
        return threads.submit(() -> {
            task.run();
            return null;
        });
    }

    /** Interrupts whatever still runs and waits (bounded) for it to end. */
    @Override
    public void close() throws InterruptedException {
        threads.shutdownNow();
        if (!threads.awaitTermination(BOUND.toSeconds(), TimeUnit.SECONDS)) {
            fail("test threads did not finish");
        }
    }

    /** Polls {@code condition} every millisecond for at most {@link #BOUND}. */
    static void eventually(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("not within " + BOUND + ": " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** The value of {@code f}, failing after {@link #BOUND}. */
    static <T> T resultOf(Future<T> f) throws Exception {
        try {
            return f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Asserts that {@code f} fails with {@code type} within {@link #BOUND}. */
    static <X extends Throwable> X failureOf(Class<X> type, Future<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        return assertInstanceOf(type, e.getCause());
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
