package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.limit.LimiterTesting.eventually;
import static shaper.limit.LimiterTesting.failureOf;
import static shaper.limit.LimiterTesting.resultOf;

import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waiting: timeouts, polling, cancellation (also racing a grant) and interruption. */
class LimiterWaitTest {
    private static final Duration COOLDOWN = Duration.ofMillis(200);

    private final ManualTimeSource time = new ManualTimeSource();
    private final LimiterTesting threads = LimiterTesting.virtualThreads();
    private final FifoLimiter limiter = new FifoLimiter("test", 1, COOLDOWN, Duration.ZERO, time);

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.close();
    }

    @Test
    void awaitTimesOutAndLeavesTheQueue() throws Exception {
        Permit held = limiter.tryAcquire();
        Ticket ticket = limiter.enqueue(0);
        Future<Permit> waiting = threads.awaitAsync(ticket, Duration.ofSeconds(1));
        eventually("timeout scheduled", () -> time.pending() == 1);
        time.advance(Duration.ofMillis(999));
        assertTrue(ticket.queued());
        time.advance(Duration.ofMillis(1));
        QueueTimeoutException e = failureOf(QueueTimeoutException.class, waiting);
        assertEquals("limiter \"test\": queue timeout after 1s", e.getMessage());
        assertFalse(ticket.queued());
        assertEquals(0, limiter.snapshot().waiters());
        assertFalse(ticket.cancel());
        held.release();
        time.advance(COOLDOWN);
        assertEquals(1, limiter.snapshot().idle(), "a timed-out waiter never receives the slot");
    }

    @Test
    void awaitTimesOutOnTheSystemClock() throws Exception {
        try (SystemTimeSource system = new SystemTimeSource("limit-test-timer")) {
            FifoLimiter real = new FifoLimiter("real", 1, Duration.ZERO, Duration.ZERO, system);
            Permit held = real.tryAcquire();
            long start = System.nanoTime();
            assertThrows(QueueTimeoutException.class, () -> real.acquire(0, Duration.ofMillis(50)));
            assertTrue(System.nanoTime() - start >= Duration.ofMillis(50).toNanos());
            assertEquals(0, real.snapshot().waiters());
            held.release();
            assertNotNull(real.acquire(0, Duration.ofSeconds(5)));
        }
    }

    @Test
    void grantBeforeTheDeadlineWinsAndCancelsTheTimer() throws Exception {
        Permit held = limiter.tryAcquire();
        Ticket ticket = limiter.enqueue(0);
        Future<Permit> waiting = threads.awaitAsync(ticket, Duration.ofSeconds(1));
        eventually("timeout scheduled", () -> time.pending() == 1);
        held.release(); // schedules the cooldown
        time.advance(COOLDOWN);
        assertNotNull(resultOf(waiting));
        eventually("timeout timer cancelled", () -> time.pending() == 0);
    }

    @Test
    void pollKeepsThePlaceInTheQueue() throws Exception {
        Permit held = limiter.tryAcquire();
        Ticket ticket = limiter.enqueue(0);
        Ticket behind = limiter.enqueue(0);
        Future<Permit> poll = threads.pollAsync(ticket, Duration.ofMillis(100));
        eventually("poll timer scheduled", () -> time.pending() == 1);
        time.advance(Duration.ofMillis(100));
        assertNull(resultOf(poll));
        assertTrue(ticket.queued());
        held.release();
        time.advance(COOLDOWN);
        assertNotNull(ticket.poll(Duration.ZERO));
        assertTrue(behind.queued());
    }

    @Test
    void cancelWakesTheWaiterAndLeavesTheQueue() throws Exception {
        Permit held = limiter.tryAcquire();
        Ticket ticket = limiter.enqueue(0);
        Ticket behind = limiter.enqueue(0);
        Future<Permit> waiting = threads.awaitAsync(ticket, Duration.ZERO);
        assertTrue(ticket.cancel());
        assertFalse(ticket.cancel());
        QueueCancelledException e = failureOf(QueueCancelledException.class, waiting);
        assertEquals("limiter \"test\": request canceled while queued", e.getMessage());
        assertEquals(1, limiter.snapshot().waiters());
        held.release();
        time.advance(COOLDOWN);
        assertNotNull(behind.poll(Duration.ZERO));
    }

    @Test
    void cancelOfAnUnclaimedGrantReturnsTheSlotWithoutCooldown() throws Exception {
        Ticket immediate = limiter.enqueue(0);
        Ticket behind = limiter.enqueue(0);
        assertTrue(immediate.cancel());
        LimiterSnapshot s = limiter.snapshot();
        assertEquals(0, s.cooling());
        assertEquals(1, s.inUse());
        assertNotNull(behind.poll(Duration.ZERO), "the next waiter gets the unused slot at once");
        assertThrows(QueueCancelledException.class, () -> immediate.await(Duration.ZERO));
    }

    @Test
    void cancelAfterClaimIsANoOp() throws Exception {
        Ticket ticket = limiter.enqueue(0);
        Permit permit = ticket.await(Duration.ZERO);
        assertFalse(ticket.cancel());
        assertFalse(permit.released());
        assertEquals(1, limiter.snapshot().inUse());
        assertThrows(IllegalStateException.class, () -> ticket.await(Duration.ZERO));
    }

    @Test
    void cancelRacingAGrantNeverLosesOrCoolsTheSlot() throws Exception {
        for (int round = 0; round < 300; round++) {
            FifoLimiter limiter = new FifoLimiter("race", 1, COOLDOWN, Duration.ZERO, time);
            limiter.tryAcquire().release();
            Ticket first = limiter.enqueue(0);
            Ticket second = limiter.enqueue(0);
            CyclicBarrier start = new CyclicBarrier(2);
            Future<?> grant = threads.run(() -> {
                start.await(5, TimeUnit.SECONDS);
                time.advance(COOLDOWN);
            });
            Future<?> cancel = threads.run(() -> {
                start.await(5, TimeUnit.SECONDS);
                assertTrue(first.cancel());
            });
            resultOf(grant);
            resultOf(cancel);
            assertThrows(QueueCancelledException.class, () -> first.poll(Duration.ZERO));
            assertNotNull(second.poll(Duration.ZERO), "round " + round + ": second waiter gets the slot without more time");
            LimiterSnapshot s = limiter.snapshot();
            assertEquals(1, s.inUse(), "round " + round);
            assertEquals(0, s.cooling(), "round " + round);
        }
    }

    @Test
    void cancelRacingAWaitingClaimGivesTheSlotToExactlyOne() throws Exception {
        for (int round = 0; round < 300; round++) {
            FifoLimiter limiter = new FifoLimiter("race", 1, COOLDOWN, Duration.ZERO, time);
            limiter.tryAcquire().release();
            Ticket first = limiter.enqueue(0);
            Ticket second = limiter.enqueue(0);
            Future<Permit> claim = threads.awaitAsync(first, Duration.ZERO);
            CyclicBarrier start = new CyclicBarrier(2);
            Future<?> grant = threads.run(() -> {
                start.await(5, TimeUnit.SECONDS);
                time.advance(COOLDOWN);
            });
            AtomicReference<Boolean> cancelled = new AtomicReference<>();
            Future<?> cancel = threads.run(() -> {
                start.await(5, TimeUnit.SECONDS);
                cancelled.set(first.cancel());
            });
            resultOf(grant);
            resultOf(cancel);
            if (cancelled.get()) {
                failureOf(QueueCancelledException.class, claim);
                assertNotNull(second.poll(Duration.ZERO), "round " + round);
            } else {
                assertNotNull(resultOf(claim), "round " + round);
                assertTrue(second.queued(), "round " + round);
            }
            LimiterSnapshot s = limiter.snapshot();
            assertEquals(1, s.inUse(), "round " + round);
            assertEquals(0, s.cooling(), "round " + round);
        }
    }

    @Test
    void interruptLeavesTheQueueAndPropagates() throws Exception {
        Permit held = limiter.tryAcquire();
        Ticket ticket = limiter.enqueue(0);
        Ticket behind = limiter.enqueue(0);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                outcome.set(new AssertionError("granted " + ticket.await(Duration.ZERO)));
            } catch (Exception e) {
                outcome.set(e);
            }
        });
        eventually("waiter parked", () -> waiter.getState() == Thread.State.WAITING);
        waiter.interrupt();
        assertTrue(waiter.join(LimiterTesting.BOUND));
        assertSame(InterruptedException.class, outcome.get().getClass());
        assertFalse(ticket.queued());
        assertFalse(ticket.cancel());
        held.release();
        time.advance(COOLDOWN);
        assertNotNull(behind.poll(Duration.ZERO));
    }
}
