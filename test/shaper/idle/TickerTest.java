package shaper.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;

/** A worker ticks while it has work, sleeps (no timed wake-ups) once idle, and no work added around its sleep is ever missed. */
class TickerTest {

    @Test
    void anIdleWorkerSleepsUntilWorkComesAndThenLooksAtOnce() throws Exception {
        try (Worker w = new Worker(new Ticker(Duration.ofMillis(5), 3), Worker::emptyQueue)) {
            // untimed park: the worker is WAITING, not TIMED_WAITING between ticks
            RunningShaper.await("the idle worker sleeps", Duration.ofSeconds(5), () -> w.thread.getState() == Thread.State.WAITING);
            int asleepAt = w.looks.get();
            RunningShaper.await("the worker stays asleep over many periods", Duration.ofSeconds(5),
                    () -> w.thread.getState() == Thread.State.WAITING && w.looks.get() == asleepAt);
            w.add();
            RunningShaper.await("the new work is taken", Duration.ofSeconds(5), () -> w.done.get() == 1);
            assertTrue(w.looks.get() > asleepAt);
        }
    }

    @Test
    void workAddedWhileTheWorkerFallsAsleepIsNeverLost() throws Exception {
        try (Worker w = new Worker(new Ticker(Duration.ofMillis(1), 1), Worker::emptyQueue)) {
            int items = 20_000;
            for (int i = 1; i <= items; i++) {
                w.add();
                // Each item must be taken without a later one to push it: a lost wake-up stalls here
                // (bounded). No sleep between items, so the next one often comes just as the worker
                // decides to sleep: the race the Ticker's order of steps must win.
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (w.done.get() < i) {
                    assertTrue(System.nanoTime() < deadline, "item " + i + " was never taken: a lost wake-up");
                    Thread.onSpinWait();
                }
            }
            assertEquals(items, w.done.get());
        }
    }

    @Test
    void workAddedRightAfterTheWorkersLastLookWakesIt() throws Exception {
        AtomicInteger races = new AtomicInteger(50);
        // A producer slips in right after each look that found nothing: the worker's answer is already
        // stale when it decides to sleep. Only publishing "asleep" before the last look saves it.
        Function<Worker, BooleanSupplier> staleLook = worker -> () -> {
            boolean empty = worker.work.isEmpty();
            if (empty && races.getAndDecrement() > 0) {
                worker.add();
            }
            return empty;
        };
        try (Worker w = new Worker(new Ticker(Duration.ofMillis(1), 1), staleLook)) {
            RunningShaper.await("every slipped-in item taken", Duration.ofSeconds(5), () -> w.done.get() == 50);
        }
    }

    /** The worker loop a {@link Ticker} is written for (pause, then take whatever work there is), and its producer. */
    private static final class Worker implements AutoCloseable {
        final Ticker ticker;
        final ConcurrentLinkedQueue<Integer> work = new ConcurrentLinkedQueue<>();
        final AtomicInteger looks = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        final Thread thread;

        /** @param idle what the worker asks before sleeping, made for this worker */
        Worker(Ticker ticker, Function<Worker, BooleanSupplier> idle) {
            this.ticker = ticker;
            BooleanSupplier nothingToDo = idle.apply(this);
            this.thread = Thread.ofPlatform().daemon().start(() -> {
                boolean found = false;
                while (!Thread.currentThread().isInterrupted()) {
                    ticker.pause(found, nothingToDo);
                    looks.incrementAndGet();
                    found = false;
                    while (work.poll() != null) {
                        done.incrementAndGet();
                        found = true;
                    }
                }
            });
        }

        BooleanSupplier emptyQueue() {
            return work::isEmpty;
        }

        /** A producer's step: add work, then wake the worker. */
        void add() {
            work.add(1);
            ticker.wake();
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            assertTrue(thread.join(Duration.ofSeconds(5)), "the worker stopped");
        }
    }
}
