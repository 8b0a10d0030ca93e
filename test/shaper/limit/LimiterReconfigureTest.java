package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A reload resizes a limiter in place: waiters and granted slots stay; the new limit holds from the next return or at once. */
class LimiterReconfigureTest {
    private final ManualTimeSource time = new ManualTimeSource();

    private static List<Permit> take(FifoLimiter l, int n) {
        List<Permit> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Permit p = l.tryAcquire();
            assertNotNull(p);
            out.add(p);
        }
        return out;
    }

    @Test
    void aLowerLimitAdmitsNobodyUntilInUseDropsBelowIt() throws Exception {
        FifoLimiter l = new FifoLimiter("t", 4, Duration.ZERO, Duration.ZERO, time);
        List<Permit> held = take(l, 4);
        Ticket waiter = l.enqueue(0);
        l.reconfigure(2, Duration.ZERO, Duration.ZERO);
        held.get(0).release();
        held.get(1).release();
        assertNull(waiter.poll(Duration.ZERO), "3 and then 2 in use: not below the new limit of 2");
        held.get(2).release();
        assertNotNull(waiter.poll(Duration.ZERO), "1 in use: the waiter gets the second slot");
        assertNull(l.tryAcquire());
        assertEquals(2, l.snapshot().limit());
    }

    @Test
    void aHigherLimitAdmitsWaitersAtOnceInOrder() throws Exception {
        FifoLimiter l = new FifoLimiter("t", 2, Duration.ZERO, Duration.ZERO, time);
        take(l, 2);
        Ticket first = l.enqueue(0);
        Ticket second = l.enqueue(0);
        Ticket third = l.enqueue(0);
        l.reconfigure(4, Duration.ZERO, Duration.ZERO);
        assertNotNull(first.poll(Duration.ZERO));
        assertNotNull(second.poll(Duration.ZERO));
        assertNull(third.poll(Duration.ZERO));
        assertEquals(4, l.snapshot().inUse());
    }

    @Test
    void shrinkingTakesIdleSlotsAtOnceAndRaisingCancelsPendingRetirement() {
        FifoLimiter l = new FifoLimiter("t", 4, Duration.ZERO, Duration.ZERO, time);
        List<Permit> held = take(l, 1);
        l.reconfigure(1, Duration.ZERO, Duration.ZERO);
        assertNull(l.tryAcquire(), "the three idle slots are gone");
        l.reconfigure(3, Duration.ZERO, Duration.ZERO);
        take(l, 2);
        assertNull(l.tryAcquire());
        held.get(0).release();
        assertNotNull(l.tryAcquire());
    }

    @Test
    void aNewCooldownAppliesToSlotsReleasedFromNowOn() {
        FifoLimiter l = new FifoLimiter("t", 1, Duration.ZERO, Duration.ZERO, time);
        Permit p = l.tryAcquire();
        assertNotNull(p);
        l.reconfigure(1, Duration.ofSeconds(1), Duration.ZERO);
        p.release();
        assertNull(l.tryAcquire(), "cooling");
        time.advance(Duration.ofSeconds(1));
        assertNotNull(l.tryAcquire());
    }

    @Test
    void anAdaptiveLimitKeepsWhatItLearntUnderANewCeilingAndNeverExceedsIt() {
        FifoLimiter l = new FifoLimiter("t", 10, Duration.ZERO, Duration.ZERO, time, new AdaptiveConcurrency(1, change -> { }));
        Permit p = l.tryAcquire();
        p.report(LoadSample.overloaded("429", 1_000_000L, 100));
        p.release();
        assertEquals(9, l.snapshot().effectiveLimit());
        l.reconfigure(20, Duration.ZERO, Duration.ZERO);
        assertEquals(20, l.limit());
        assertEquals(9, l.snapshot().effectiveLimit(), "learnt below the old ceiling: kept");
        l.reconfigure(4, Duration.ZERO, Duration.ZERO);
        assertEquals(4, l.snapshot().effectiveLimit(), "capped by the new ceiling");
        take(l, 4);
        assertNull(l.tryAcquire());
    }

    @Test
    void anAdaptiveLimitAtItsCeilingFollowsItUp() {
        FifoLimiter l = new FifoLimiter("t", 4, Duration.ZERO, Duration.ZERO, time, new AdaptiveConcurrency(1, change -> { }));
        l.reconfigure(6, Duration.ZERO, Duration.ZERO);
        assertEquals(6, l.snapshot().effectiveLimit());
        take(l, 6);
        assertNull(l.tryAcquire());
    }
}
