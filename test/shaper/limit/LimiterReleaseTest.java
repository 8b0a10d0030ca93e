package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Release: cooldown, holds, idempotence; a manual clock stands in for the timer. */
class LimiterReleaseTest {
    private static final Duration COOLDOWN = Duration.ofMillis(200);

    private final ManualTimeSource time = new ManualTimeSource();
    private final FifoLimiter limiter = new FifoLimiter("test", 1, COOLDOWN, Duration.ZERO, time);

    @Test
    void releasedSlotCoolsDownBeforeTheNextGrant() throws Exception {
        Permit permit = limiter.tryAcquire();
        Ticket waiter = limiter.enqueue(0);
        permit.release();
        assertTrue(permit.released());
        LimiterSnapshot s = limiter.snapshot();
        assertEquals(0, s.inUse());
        assertEquals(1, s.cooling());
        time.advance(COOLDOWN.minusNanos(1));
        assertTrue(waiter.queued());
        time.advance(Duration.ofNanos(1));
        assertNotNull(waiter.poll(Duration.ZERO));
        assertEquals(0, limiter.snapshot().cooling());
    }

    @Test
    void zeroCooldownReturnsTheSlotAtOnce() throws Exception {
        FifoLimiter immediate = new FifoLimiter("now", 1, Duration.ZERO, Duration.ZERO, time);
        Permit permit = immediate.tryAcquire();
        Ticket waiter = immediate.enqueue(0);
        permit.release();
        assertNotNull(waiter.poll(Duration.ZERO));
        assertEquals(0, time.pending());
    }

    @Test
    void holdKeepsTheSlotInUseThenTheCooldownStacksOnTop() throws Exception {
        // Failure hold 2s + release cooldown 200ms = 2.2s before the next request is admitted.
        Permit permit = limiter.tryAcquire();
        Ticket waiter = limiter.enqueue(0);
        permit.releaseAfter(Duration.ofSeconds(2));
        assertTrue(permit.released());
        assertEquals(1, limiter.snapshot().inUse());
        time.advance(Duration.ofSeconds(2));
        LimiterSnapshot s = limiter.snapshot();
        assertEquals(0, s.inUse());
        assertEquals(1, s.cooling());
        assertTrue(waiter.queued());
        time.advance(COOLDOWN);
        assertNotNull(waiter.poll(Duration.ZERO));
    }

    @Test
    void zeroHoldIsAPlainRelease() {
        limiter.tryAcquire().releaseAfter(Duration.ZERO);
        assertEquals(1, limiter.snapshot().cooling());
    }

    @Test
    void releaseIsIdempotent() {
        FifoLimiter two = new FifoLimiter("two", 2, COOLDOWN, Duration.ZERO, time);
        Permit permit = two.tryAcquire();
        Permit other = two.tryAcquire();
        permit.release();
        permit.release();
        permit.releaseAfter(Duration.ofSeconds(5));
        assertEquals(1, two.snapshot().cooling());
        assertEquals(1, two.snapshot().inUse());
        time.advance(Duration.ofSeconds(10));
        assertEquals(1, two.snapshot().idle());
        assertEquals(1, two.snapshot().inUse(), "a second release must not free the other holder's slot");
        other.release();
    }

    @Test
    void releaseDuringAHoldDoesNotShortenIt() {
        Permit permit = limiter.tryAcquire();
        permit.releaseAfter(Duration.ofSeconds(2));
        permit.release();
        assertEquals(1, limiter.snapshot().inUse());
        time.advance(Duration.ofSeconds(2).plus(COOLDOWN));
        assertEquals(1, limiter.snapshot().idle());
    }

    @Test
    void rejectsANegativeHold() {
        Permit permit = limiter.tryAcquire();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> permit.releaseAfter(Duration.ofSeconds(-1)));
        assertEquals("hold must be >= 0, got -1s", e.getMessage());
        assertFalse(permit.released());
    }

    @Test
    void systemTimerReleasesHeldSlots() throws Exception {
        try (SystemTimeSource system = new SystemTimeSource("limit-test-timer")) {
            FifoLimiter real = new FifoLimiter("real", 1, Duration.ofMillis(10), Duration.ZERO, system);
            long start = System.nanoTime();
            real.tryAcquire().releaseAfter(Duration.ofMillis(20));
            Permit next = real.acquire(0, Duration.ofSeconds(5));
            assertTrue(System.nanoTime() - start >= Duration.ofMillis(30).toNanos());
            next.release();
        }
    }
}
