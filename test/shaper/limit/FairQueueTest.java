package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Weighted fair queueing across priority classes: shares, FIFO within a class, no starvation, no banked credit. */
class FairQueueTest {
    private static final QueueClass INTERACTIVE = new QueueClass("interactive", 4);
    private static final QueueClass BACKGROUND = new QueueClass("background", 1);

    private final ManualTimeSource time = new ManualTimeSource();
    private final FifoLimiter limiter = new FifoLimiter("test", 1, Duration.ZERO, Duration.ZERO, time);

    /** The one slot's current holder. */
    private Permit holder;

    /** Releases the slot {@code grants} times and returns, in order, the waiter served each time. */
    private List<String> serve(Map<Ticket, String> waiting, int grants) throws Exception {
        List<String> served = new ArrayList<>();
        for (int i = 0; i < grants; i++) {
            holder.release();
            Permit held = null;
            for (var e : new ArrayList<>(waiting.entrySet())) {
                if (!e.getKey().queued()) {
                    held = e.getKey().poll(Duration.ZERO);
                    served.add(e.getValue());
                    waiting.remove(e.getKey());
                }
            }
            assertNotNull(held, "release " + i + " granted nobody");
            holder = held;
        }
        return served;
    }

    private void enqueue(Map<Ticket, String> waiting, QueueClass cls, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            waiting.put(limiter.enqueue(0, cls), cls.name() + "#" + i);
        }
    }

    private static long count(List<String> served, QueueClass cls, int from, int to) {
        return served.subList(from, to).stream().filter(s -> s.startsWith(cls.name() + "#")).count();
    }

    @Test
    void classesShareSlotsByWeightWhileBothWait() throws Exception {
        holder = limiter.tryAcquire();
        Map<Ticket, String> waiting = new LinkedHashMap<>();
        enqueue(waiting, BACKGROUND, 30);
        enqueue(waiting, INTERACTIVE, 30);
        List<String> served = serve(waiting, 25);
        assertEquals(20, count(served, INTERACTIVE, 0, 25), served.toString());
        assertEquals(5, count(served, BACKGROUND, 0, 25), served.toString());
        for (int from = 0; from + 5 <= 25; from++) {
            assertTrue(count(served, BACKGROUND, from, from + 5) >= 1, "background starved in " + served.subList(from, from + 5));
        }
    }

    @Test
    void eachClassIsServedInArrivalOrder() throws Exception {
        holder = limiter.tryAcquire();
        Map<Ticket, String> waiting = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            waiting.put(limiter.enqueue(0, BACKGROUND), "background#" + i);
            waiting.put(limiter.enqueue(0, INTERACTIVE), "interactive#" + i);
        }
        List<String> served = serve(waiting, 20);
        for (QueueClass cls : List.of(INTERACTIVE, BACKGROUND)) {
            List<String> mine = served.stream().filter(s -> s.startsWith(cls.name())).toList();
            for (int i = 0; i < mine.size(); i++) {
                assertEquals(cls.name() + "#" + i, mine.get(i));
            }
        }
    }

    @Test
    void aClassThatWasAloneBanksNoCreditAgainstANewcomer() throws Exception {
        holder = limiter.tryAcquire();
        Map<Ticket, String> waiting = new LinkedHashMap<>();
        enqueue(waiting, BACKGROUND, 60);
        List<String> alone = serve(waiting, 40);
        assertEquals(40, count(alone, BACKGROUND, 0, 40));
        enqueue(waiting, INTERACTIVE, 20);
        List<String> mixed = serve(waiting, 10);
        assertTrue(mixed.getFirst().startsWith("interactive"), "the newcomer waits behind banked credit: " + mixed);
        assertTrue(count(mixed, INTERACTIVE, 0, 10) >= 8, mixed.toString());
        assertTrue(count(mixed, BACKGROUND, 0, 10) >= 1, mixed.toString());
    }

    @Test
    void aHeavyClassThatWasAloneDoesNotStarveALightNewcomer() throws Exception {
        holder = limiter.tryAcquire();
        Map<Ticket, String> waiting = new LinkedHashMap<>();
        enqueue(waiting, INTERACTIVE, 80);
        serve(waiting, 50);
        enqueue(waiting, BACKGROUND, 5);
        List<String> mixed = serve(waiting, 5);
        assertTrue(count(mixed, BACKGROUND, 0, 5) >= 1, "background starved: " + mixed);
    }

    @Test
    void viewCountsWaitersPerClass() throws Exception {
        holder = limiter.tryAcquire();
        limiter.enqueue(0, BACKGROUND);
        limiter.enqueue(0, INTERACTIVE);
        limiter.enqueue(0, BACKGROUND);
        LimiterView view = limiter.view();
        assertEquals(Map.of("background", 2, "interactive", 1), view.queuedByClass());
        assertEquals(3, view.counts().waiters());
        assertEquals(1, view.active());
    }

    @Test
    void withoutClassesTheViewShowsOneDefaultLane() throws Exception {
        limiter.tryAcquire();
        Ticket t = limiter.enqueue(0);
        assertEquals(Map.of("default", 1), limiter.view().queuedByClass());
        t.cancel();
        assertEquals(Map.of("default", 0), limiter.view().queuedByClass());
        assertFalse(t.queued());
    }
}
