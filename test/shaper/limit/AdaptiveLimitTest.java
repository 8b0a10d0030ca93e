package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

/** -adaptive-concurrency: AIMD between -concurrency-min and the configured limit, one move per window. */
class AdaptiveLimitTest {
    private static final long MS = 1_000_000L;

    private final ManualTimeSource time = new ManualTimeSource();
    private final List<LimitChange> changes = new CopyOnWriteArrayList<>();

    private FifoLimiter limiter(int ceiling, int min) {
        return new FifoLimiter("pool", ceiling, Duration.ZERO, Duration.ZERO, time, new AdaptiveConcurrency(min, changes::add));
    }

    private static LoadSample served(long ttfbMs) {
        return LoadSample.served(ttfbMs * MS, 100);
    }

    private static int limitOf(FifoLimiter l) {
        return l.snapshot().effectiveLimit();
    }

    /** Takes every slot, so the limit binds, and queues one more request. */
    private static List<Permit> saturate(FifoLimiter l) throws Exception {
        List<Permit> held = new ArrayList<>();
        for (Permit p = l.tryAcquire(); p != null; p = l.tryAcquire()) {
            held.add(p);
        }
        return held;
    }

    @Test
    void startsAtTheCeilingAndAnOverloadCutsItByATenth() throws Exception {
        FifoLimiter l = limiter(32, 1);
        assertEquals(32, limitOf(l));
        Permit p = l.tryAcquire();
        p.report(LoadSample.overloaded("429", 5 * MS, 100));
        p.release();
        assertEquals(28, limitOf(l));
        assertEquals(List.of(new LimitChange("pool", 32, 28, "429")), changes);
    }

    @Test
    void manySignalsOfOneWindowCutOnce() throws Exception {
        FifoLimiter l = limiter(10, 1);
        List<Permit> held = saturate(l);
        for (Permit p : held) {
            p.report(LoadSample.overloaded("429", MS, 100));
            p.release();
        }
        assertEquals(9, limitOf(l), "slots granted before the cut say nothing about the new limit");
        Permit fresh = l.tryAcquire();
        fresh.report(LoadSample.overloaded("529", MS, 100));
        assertEquals(8, limitOf(l));
    }

    @Test
    void aWindowOfCleanCompletionsAtTheLimitAddsOne() throws Exception {
        FifoLimiter l = limiter(10, 1);
        l.tryAcquire().report(LoadSample.overloaded("503", MS, 100));
        assertEquals(9, limitOf(l));
        // 8 more slots fill the limit of 9 (one is still held); each finishes clean while others wait
        List<Permit> held = saturate(l);
        assertEquals(8, held.size());
        Ticket waiter = l.enqueue(0);
        for (int i = 0; i < 8; i++) {
            held.get(i).report(served(10));
            held.get(i).release();
            held.set(i, i == 0 ? waiter.poll(Duration.ZERO) : l.enqueue(0).poll(Duration.ZERO));
        }
        assertEquals(9, limitOf(l), "8 clean completions are not yet a window at 9");
        held.get(0).report(served(10));
        assertEquals(10, limitOf(l));
        assertEquals("9 clean completions at 9", changes.getLast().reason());
    }

    @Test
    void cleanCompletionsWhileTheLimitDoesNotBindLearnNothing() throws Exception {
        FifoLimiter l = limiter(10, 1);
        l.tryAcquire().report(LoadSample.overloaded("429", MS, 100));
        for (int i = 0; i < 50; i++) {
            Permit p = l.tryAcquire();
            p.report(served(10));
            p.release();
        }
        assertEquals(9, limitOf(l));
    }

    @Test
    void aFirstByteTwiceTheFloorIsAnOverloadSignal() throws Exception {
        FifoLimiter l = limiter(10, 1);
        for (long ttfb : new long[] {120, 100, 110}) {
            Permit p = l.tryAcquire();
            p.report(served(ttfb));
            p.release();
        }
        Permit near = l.tryAcquire();
        near.report(served(190));
        assertEquals(10, limitOf(l), "1.9 x the floor is not yet well above it");
        Permit slow = l.tryAcquire();
        slow.report(served(210));
        assertEquals(9, limitOf(l));
        assertEquals("first byte 210ms, floor 100ms", changes.getLast().reason());
    }

    @Test
    void aQuickRefusalDoesNotLowerTheFloor() throws Exception {
        FifoLimiter l = limiter(10, 1);
        l.tryAcquire().report(served(100));
        l.tryAcquire().report(LoadSample.overloaded("429", 2 * MS, 100)); // 10 -> 9
        l.tryAcquire().report(served(110));
        assertEquals(9, limitOf(l), "110ms is near the served floor of 100ms, not 55 times a 429's 2ms");
    }

    @Test
    void aFastUpstreamNeedsFiftyMillisecondsMoreThanTheFloor() throws Exception {
        FifoLimiter l = limiter(10, 1);
        l.tryAcquire().report(served(2));
        l.tryAcquire().report(served(40));
        assertEquals(10, limitOf(l), "jitter on a 2ms upstream is not queueing");
        l.tryAcquire().report(served(60));
        assertEquals(9, limitOf(l));
    }

    @Test
    void aLongPromptIsJudgedAgainstTheFloorOfItsOwnSize() throws Exception {
        FifoLimiter l = limiter(10, 1);
        l.tryAcquire().report(LoadSample.served(100 * MS, 500));
        l.tryAcquire().report(LoadSample.served(3_000 * MS, 400_000));
        assertEquals(10, limitOf(l));
    }

    @Test
    void theFloorForgetsAfterTwoWindows() throws Exception {
        FifoLimiter l = limiter(10, 1);
        l.tryAcquire().report(served(100));
        time.advance(Duration.ofSeconds(61));
        l.tryAcquire().report(served(400));
        assertEquals(10, limitOf(l), "a lastingly slower upstream is the new floor, not an overload");
    }

    @Test
    void neverBelowTheMinimumNorAboveTheCeiling() throws Exception {
        FifoLimiter l = limiter(4, 2);
        for (int i = 0; i < 5; i++) {
            Permit p = l.tryAcquire();
            assertNotNull(p);
            p.report(LoadSample.overloaded("429", MS, 100));
            p.release();
        }
        assertEquals(2, limitOf(l));
        FifoLimiter top = limiter(2, 1);
        for (int i = 0; i < 10; i++) {
            List<Permit> held = saturate(top);
            for (Permit p : held) {
                p.report(served(10));
                p.release();
            }
        }
        assertEquals(2, limitOf(top));
    }

    @Test
    void aLowerLimitRevokesNothingAndRetiresSlotsAsTheyComeBack() throws Exception {
        FifoLimiter l = limiter(4, 1);
        List<Permit> held = saturate(l);
        Ticket waiter = l.enqueue(0);
        held.getFirst().report(LoadSample.overloaded("429", MS, 100)); // 4 -> 3
        assertEquals(3, limitOf(l));
        assertEquals(4, l.snapshot().inUse(), "nothing in use is revoked");
        held.get(0).release();
        assertTrue(waiter.queued(), "the first slot back is retired");
        held.get(1).release();
        assertNotNull(waiter.poll(Duration.ZERO));
        assertEquals(3, l.snapshot().inUse());
    }

    @Test
    void aRaisedLimitGrantsARetiredSlotToAWaiter() throws Exception {
        FifoLimiter l = limiter(3, 1);
        Permit first = l.tryAcquire();
        first.report(LoadSample.overloaded("429", MS, 100)); // 3 -> 2, an idle slot retires
        first.release();
        List<Permit> held = saturate(l);
        assertEquals(2, held.size());
        Ticket waiter = l.enqueue(0);
        held.get(0).report(served(10));
        assertTrue(waiter.queued());
        held.get(1).report(served(10));
        assertNotNull(waiter.poll(Duration.ZERO), "the limit rose to 3 and the retired slot went to the waiter");
    }

    @Test
    void headroomNeverTakesTheLastSlotOfAnAdaptiveLimit() throws Exception {
        FifoLimiter l = new FifoLimiter("pool", 2, Duration.ZERO, Duration.ofSeconds(30), time, new AdaptiveConcurrency(1, changes::add));
        Permit p = l.tryAcquire();
        l.onRateLimited();
        assertEquals(1, limitOf(l));
        p.report(LoadSample.overloaded("429", MS, 100)); // 2 -> 1: the withheld slot comes back, then retires
        p.release();
        assertEquals(1, limitOf(l));
        assertNotNull(l.tryAcquire(), "one slot is always left");
    }
}
