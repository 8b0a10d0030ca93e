package shaper.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;

/** A worker ticks while it has work, sleeps (no timed wake-ups) once idle, and no work added around its sleep is ever missed. */
class TickerTest {

    @Test
    void anIdleWorkerSleepsUntilWorkComesAndThenLooksAtOnce() throws Exception {
        Ticker ticker = new Ticker(Duration.ofMillis(5), 3);
        ConcurrentLinkedQueue<Integer> work = new ConcurrentLinkedQueue<>();
        AtomicInteger looks = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        Thread worker = worker(ticker, work::isEmpty, work, looks, done);
        try {
            // untimed park: the worker is WAITING, not TIMED_WAITING between ticks
            RunningShaper.await("the idle worker sleeps", Duration.ofSeconds(5), () -> worker.getState() == Thread.State.WAITING);
            int asleepAt = looks.get();
            RunningShaper.await("the worker stays asleep over many periods", Duration.ofSeconds(5),
                    () -> worker.getState() == Thread.State.WAITING && looks.get() == asleepAt);
            work.add(1);
            ticker.wake();
            RunningShaper.await("the new work is taken", Duration.ofSeconds(5), () -> done.get() == 1);
            assertTrue(looks.get() > asleepAt);
        } finally {
            stop(worker);
        }
    }

    @Test
    void workAddedWhileTheWorkerFallsAsleepIsNeverLost() throws Exception {
        Ticker ticker = new Ticker(Duration.ofMillis(1), 1);
        ConcurrentLinkedQueue<Integer> work = new ConcurrentLinkedQueue<>();
        AtomicInteger done = new AtomicInteger();
        Thread worker = worker(ticker, work::isEmpty, work, new AtomicInteger(), done);
        try {
            int items = 20_000;
            for (int i = 1; i <= items; i++) {
                work.add(i);
                ticker.wake();
                // Each item must be taken without a later one to push it: a lost wake-up stalls here
                // (bounded). No sleep between items, so the next one often comes just as the worker
                // decides to sleep: the race the Ticker's order of steps must win.
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (done.get() < i) {
                    assertTrue(System.nanoTime() < deadline, "item " + i + " was never taken: a lost wake-up");
                    Thread.onSpinWait();
                }
            }
            assertEquals(items, done.get());
        } finally {
            stop(worker);
        }
    }

    @Test
    void workAddedRightAfterTheWorkersLastLookWakesIt() throws Exception {
        Ticker ticker = new Ticker(Duration.ofMillis(1), 1);
        ConcurrentLinkedQueue<Integer> work = new ConcurrentLinkedQueue<>();
        AtomicInteger races = new AtomicInteger(50);
        AtomicInteger done = new AtomicInteger();
        // A producer slips in right after each look that found nothing: the worker's answer is already
        // stale when it decides to sleep. Only publishing "asleep" before the last look saves it.
        BooleanSupplier idle = () -> {
            boolean empty = work.isEmpty();
            if (empty && races.getAndDecrement() > 0) {
                work.add(1);
                ticker.wake();
            }
            return empty;
        };
        Thread worker = worker(ticker, idle, work, new AtomicInteger(), done);
        try {
            RunningShaper.await("every slipped-in item taken", Duration.ofSeconds(5), () -> done.get() == 50);
        } finally {
            stop(worker);
        }
    }

    /** The worker loop a {@link Ticker} is written for: pause, then take whatever work there is. */
    private static Thread worker(Ticker ticker, BooleanSupplier idle, Queue<Integer> work, AtomicInteger looks, AtomicInteger done) {
        return Thread.ofPlatform().daemon().start(() -> {
            boolean found = false;
            while (!Thread.currentThread().isInterrupted()) {
                ticker.pause(found, idle);
                looks.incrementAndGet();
                found = false;
                while (work.poll() != null) {
                    done.incrementAndGet();
                    found = true;
                }
            }
        });
    }

    private static void stop(Thread worker) throws InterruptedException {
        worker.interrupt();
        assertTrue(worker.join(Duration.ofSeconds(5)), "the worker stopped");
    }
}
