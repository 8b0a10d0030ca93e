package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Adaptive headroom: one slot withheld after a 429 for a window that every 429 restarts. */
class AdaptiveHeadroomTest {
    private static final Duration WINDOW = Duration.ofSeconds(30);

    private final ManualTimeSource time = new ManualTimeSource();

    private FifoLimiter limiter(int limit, Duration window) {
        return new FifoLimiter("test", limit, Duration.ZERO, window, time);
    }

    @Test
    void rateLimitWithholdsAnIdleSlotForTheWindow() throws Exception {
        FifoLimiter limiter = limiter(3, WINDOW);
        limiter.onRateLimited();
        assertEquals(2, limiter.snapshot().effectiveLimit());
        assertNotNull(limiter.tryAcquire());
        assertNotNull(limiter.tryAcquire());
        assertNull(limiter.tryAcquire());
        Ticket waiter = limiter.enqueue(0);
        time.advance(WINDOW.minusNanos(1));
        assertTrue(waiter.queued());
        time.advance(Duration.ofNanos(1));
        assertNotNull(waiter.poll(Duration.ZERO), "the restored slot admits the waiter");
        assertEquals(3, limiter.snapshot().effectiveLimit());
    }

    @Test
    void withoutAnIdleSlotTheNextReleaseIsAbsorbed() throws Exception {
        FifoLimiter limiter = limiter(2, WINDOW);
        Permit a = limiter.tryAcquire();
        Permit b = limiter.tryAcquire();
        Ticket waiter = limiter.enqueue(0);
        limiter.onRateLimited();
        assertEquals(1, limiter.snapshot().effectiveLimit());
        a.release();
        assertTrue(waiter.queued(), "the first release is absorbed");
        assertEquals(1, limiter.snapshot().inUse());
        b.release();
        assertNotNull(waiter.poll(Duration.ZERO));
        time.advance(WINDOW);
        LimiterSnapshot s = limiter.snapshot();
        assertEquals(2, s.effectiveLimit());
        assertEquals(1, s.idle());
    }

    @Test
    void everyRateLimitRestartsTheWindowWithoutWithholdingMore() {
        FifoLimiter limiter = limiter(3, WINDOW);
        limiter.onRateLimited();
        time.advance(Duration.ofSeconds(20));
        limiter.onRateLimited();
        assertEquals(2, limiter.snapshot().effectiveLimit());
        assertEquals(2, limiter.snapshot().idle());
        time.advance(Duration.ofSeconds(20));
        assertEquals(2, limiter.snapshot().effectiveLimit(), "the first window must not end the restarted one");
        time.advance(Duration.ofSeconds(10));
        assertEquals(3, limiter.snapshot().effectiveLimit());
        assertEquals(3, limiter.snapshot().idle());
        assertEquals(0, time.pending());
    }

    @Test
    void pendingAbsorptionLapsesWhenTheWindowEnds() throws Exception {
        FifoLimiter limiter = limiter(2, WINDOW);
        Permit a = limiter.tryAcquire();
        limiter.tryAcquire();
        limiter.onRateLimited();
        time.advance(WINDOW);
        assertEquals(2, limiter.snapshot().effectiveLimit());
        a.release();
        assertEquals(1, limiter.snapshot().idle());
    }

    @Test
    void neverWithholdsTheLastSlot() {
        FifoLimiter limiter = limiter(1, WINDOW);
        limiter.onRateLimited();
        assertEquals(1, limiter.snapshot().effectiveLimit());
        assertNotNull(limiter.tryAcquire());
    }

    @Test
    void headroomOffIgnoresRateLimits() {
        FifoLimiter limiter = limiter(2, Duration.ZERO);
        limiter.onRateLimited();
        assertEquals(2, limiter.snapshot().effectiveLimit());
        assertEquals(2, limiter.snapshot().idle());
        assertEquals(0, time.pending());
    }

    @Test
    void slotComingBackFromCooldownIsAbsorbed() throws Exception {
        FifoLimiter limiter = new FifoLimiter("cool", 2, Duration.ofMillis(200), WINDOW, time);
        Permit a = limiter.tryAcquire();
        limiter.tryAcquire();
        a.release();
        limiter.onRateLimited();
        Ticket waiter = limiter.enqueue(0);
        time.advance(Duration.ofMillis(200));
        assertTrue(waiter.queued());
        LimiterSnapshot s = limiter.snapshot();
        assertEquals(1, s.effectiveLimit());
        assertEquals(0, s.cooling());
        assertEquals(1, s.inUse());
    }
}
