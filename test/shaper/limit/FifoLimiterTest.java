package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.limit.LimiterTesting.resultOf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Admission: free slots, FIFO order, no barging, the depth bound, snapshots. */
class FifoLimiterTest {
    private final ManualTimeSource time = new ManualTimeSource();
    private final LimiterTesting threads = LimiterTesting.platformThreads();

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.close();
    }

    private FifoLimiter limiter(int limit, Duration cooldown) {
        return new FifoLimiter("test", limit, cooldown, Duration.ZERO, time);
    }

    @Test
    void rejectsInvalidConfiguration() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter(0, Duration.ZERO));
        assertEquals("limiter \"test\": concurrency must be >= 1, got 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> limiter(1, Duration.ofMillis(-200)));
        assertEquals("releaseCooldown must be >= 0, got -200ms", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> limiter(1, Duration.ZERO).enqueue(-1));
        assertThrows(NullPointerException.class, () -> new FifoLimiter("x", 1, Duration.ZERO, Duration.ZERO, null));
    }

    @Test
    void freeSlotsAreGrantedAtOnceUpToTheLimit() throws Exception {
        FifoLimiter limiter = limiter(2, Duration.ZERO);
        Ticket first = limiter.enqueue(0);
        assertFalse(first.queued());
        assertNotNull(first.poll(Duration.ZERO));
        assertNotNull(limiter.tryAcquire());
        assertNull(limiter.tryAcquire());
        Ticket third = limiter.enqueue(0);
        assertTrue(third.queued());
        assertNull(third.poll(Duration.ZERO));
        LimiterSnapshot s = limiter.snapshot();
        assertEquals(2, s.inUse());
        assertEquals(0, s.idle());
        assertEquals(1, s.waiters());
    }

    @Test
    void waitersAreGrantedInArrivalOrder() throws Exception {
        FifoLimiter limiter = limiter(1, Duration.ZERO);
        Permit held = limiter.tryAcquire();
        List<Ticket> tickets = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            tickets.add(limiter.enqueue(0));
        }
        for (int i = 0; i < 50; i++) {
            held.release();
            held = tickets.get(i).poll(Duration.ZERO);
            assertNotNull(held, "waiter " + i + " should hold the slot");
            for (int j = i + 1; j < 50; j++) {
                assertTrue(tickets.get(j).queued(), "waiter " + j + " granted before waiter " + i + " released");
            }
        }
        held.release();
        assertEquals(1, limiter.snapshot().idle());
    }

    @Test
    void waitingThreadsAreAdmittedInArrivalOrder() throws Exception {
        FifoLimiter limiter = limiter(1, Duration.ZERO);
        Permit held = limiter.tryAcquire();
        List<Integer> admitted = Collections.synchronizedList(new ArrayList<>());
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int index = i;
            Ticket ticket = limiter.enqueue(0);
            done.add(threads.run(() -> {
                Permit p = ticket.await(Duration.ZERO);
                admitted.add(index);
                p.release();
            }));
        }
        held.release();
        for (Future<?> f : done) {
            resultOf(f);
        }
        assertEquals(IntStream.range(0, 50).boxed().toList(), admitted);
    }

    @Test
    void arrivalNeverBargesPastAWaiterWhenASlotIsReleased() throws Exception {
        for (int round = 0; round < 200; round++) {
            FifoLimiter limiter = limiter(1, Duration.ZERO);
            Permit held = limiter.tryAcquire();
            assertArrivalsDoNotBarge(limiter, held::release, "release, round " + round);
        }
    }

    @Test
    void arrivalNeverBargesPastAWaiterWhenACooldownEnds() throws Exception {
        for (int round = 0; round < 200; round++) {
            FifoLimiter limiter = limiter(1, Duration.ofMillis(200));
            limiter.tryAcquire().release();
            assertArrivalsDoNotBarge(limiter, () -> time.advance(Duration.ofMillis(200)), "cooldown, round " + round);
        }
    }

    /** Queues a waiter, then frees the only slot while another thread keeps arriving. */
    private void assertArrivalsDoNotBarge(FifoLimiter limiter, Runnable freeSlot, String round) throws Exception {
        Ticket waiter = limiter.enqueue(0);
        CyclicBarrier start = new CyclicBarrier(2);
        Future<?> freeing = threads.run(() -> {
            start.await(5, TimeUnit.SECONDS);
            freeSlot.run();
        });
        List<Ticket> arrivals = new ArrayList<>();
        AtomicInteger barged = new AtomicInteger();
        Future<?> arriving = threads.run(() -> {
            start.await(5, TimeUnit.SECONDS);
            do {
                if (limiter.tryAcquire() != null) {
                    barged.incrementAndGet();
                }
                arrivals.add(limiter.enqueue(0));
            } while (!freeing.isDone());
        });
        resultOf(freeing);
        resultOf(arriving);
        assertEquals(0, barged.get(), round);
        assertNotNull(waiter.poll(Duration.ZERO), round);
        for (Ticket t : arrivals) {
            assertTrue(t.queued(), round);
        }
    }

    @Test
    void depthBoundCountsWaitersOnly() throws Exception {
        FifoLimiter limiter = limiter(1, Duration.ZERO);
        Ticket holder = limiter.enqueue(1);
        assertNotNull(holder.poll(Duration.ZERO));
        Ticket first = limiter.enqueue(2);
        limiter.enqueue(2);
        QueueFullException full = assertThrows(QueueFullException.class, () -> limiter.enqueue(2));
        assertEquals(2, full.depth());
        assertEquals("test", full.limiter());
        assertEquals("limiter \"test\": queue full (2 waiting, depth 2)", full.getMessage());
        assertEquals(2, limiter.snapshot().waiters());
        assertTrue(first.cancel());
        limiter.enqueue(2);
        limiter.enqueue(0);
        assertEquals(3, limiter.snapshot().waiters());
    }

    @Test
    void concurrentArrivalsWithFreeSlotsAreNeverRejectedByTheDepthBound() throws Exception {
        // Regression from the original tool: 16 concurrent requests, limit 64, depth 1, zero 429s.
        FifoLimiter limiter = limiter(64, Duration.ZERO);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch allHolding = new CountDownLatch(16);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            done.add(threads.run(() -> {
                start.await();
                Permit p = limiter.enqueue(1).await(Duration.ofSeconds(5));
                allHolding.countDown();
                allHolding.await();
                p.release();
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            resultOf(f);
        }
        assertEquals(64, limiter.snapshot().idle());
    }

    @Test
    void snapshotCountsSlotsAndOldestWaiterAge() throws Exception {
        FifoLimiter limiter = new FifoLimiter("messages", 3, Duration.ofMillis(200), Duration.ofSeconds(30), time);
        assertEquals(new LimiterSnapshot("messages", 3, 3, 0, 0, 3, 0, Duration.ZERO), limiter.snapshot());
        Permit a = limiter.tryAcquire();
        Permit b = limiter.tryAcquire();
        Permit c = limiter.tryAcquire();
        a.release();
        b.releaseAfter(Duration.ofSeconds(1));
        Ticket first = limiter.enqueue(0);
        time.advance(Duration.ofMillis(50));
        limiter.enqueue(0);
        time.advance(Duration.ofMillis(100));
        assertEquals(new LimiterSnapshot("messages", 3, 3, 2, 1, 0, 2, Duration.ofMillis(150)), limiter.snapshot());
        time.advance(Duration.ofMillis(50));
        // a's cooldown ended: the first waiter got the slot and the second is now the oldest.
        assertFalse(first.queued());
        assertEquals(new LimiterSnapshot("messages", 3, 3, 3, 0, 0, 1, Duration.ofMillis(150)), limiter.snapshot());
        limiter.onRateLimited();
        assertEquals(2, limiter.snapshot().effectiveLimit());
        c.release();
        first.poll(Duration.ZERO).release();
        time.advance(Duration.ofSeconds(60));
        LimiterSnapshot end = limiter.snapshot();
        assertEquals(0, end.waiters());
        assertEquals(3, end.effectiveLimit());
        assertEquals(1, end.inUse()); // the second waiter holds its slot
    }
}
