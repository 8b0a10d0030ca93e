package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.limit.LimiterTesting.failureOf;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** -queue-depth with classes: the newest waiter of the lightest class is refused, the arrival counted as a waiter. */
class QueueOverflowTest {
    private static final QueueClass INTERACTIVE = new QueueClass("interactive", 4);
    private static final QueueClass BATCH = new QueueClass("batch", 2);
    private static final QueueClass BACKGROUND = new QueueClass("background", 1);

    private final ManualTimeSource time = new ManualTimeSource();
    private final LimiterTesting threads = LimiterTesting.virtualThreads();
    private final FifoLimiter limiter = new FifoLimiter("test", 1, Duration.ZERO, Duration.ZERO, time);

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.close();
    }

    @Test
    void aLightArrivalAtAFullQueueIsItselfRefused() throws Exception {
        limiter.tryAcquire();
        limiter.enqueue(2, INTERACTIVE);
        limiter.enqueue(2, BACKGROUND);
        QueueFullException e = assertThrows(QueueFullException.class, () -> limiter.enqueue(2, BACKGROUND));
        assertEquals(2, e.depth());
        assertEquals(Map.of("interactive", 1, "background", 1), limiter.view().queuedByClass());
    }

    @Test
    void aHeavyArrivalDisplacesTheNewestWaiterOfTheLightestClass() throws Exception {
        Permit held = limiter.tryAcquire();
        Ticket oldBackground = limiter.enqueue(3, BACKGROUND);
        Ticket batch = limiter.enqueue(3, BATCH);
        Ticket newBackground = limiter.enqueue(3, BACKGROUND);
        Future<Permit> displaced = threads.awaitAsync(newBackground, Duration.ZERO);
        Ticket interactive = limiter.enqueue(3, INTERACTIVE);
        QueueFullException e = failureOf(QueueFullException.class, displaced);
        assertEquals("limiter \"test\": queue full (3 waiting, depth 3)", e.getMessage());
        assertFalse(newBackground.queued());
        assertFalse(newBackground.cancel(), "a refused ticket has nothing left to cancel");
        assertTrue(oldBackground.queued());
        assertEquals(3, limiter.snapshot().waiters());
        // the slot still goes round: interactive first, and nobody holds a refused ticket's slot
        held.release();
        assertNotNull(interactive.poll(Duration.ZERO));
        assertTrue(batch.queued());
    }

    @Test
    void aMiddleArrivalDisplacesOnlyALighterClass() throws Exception {
        limiter.tryAcquire();
        limiter.enqueue(2, INTERACTIVE);
        Ticket background = limiter.enqueue(2, BACKGROUND);
        Ticket batch = limiter.enqueue(2, BATCH);
        assertThrows(QueueFullException.class, () -> background.poll(Duration.ZERO));
        assertThrows(QueueFullException.class, () -> limiter.enqueue(2, BATCH), "batch is the lightest left: the arrival is the newest of it");
        assertTrue(batch.queued());
        Ticket late = limiter.enqueue(2, INTERACTIVE);
        assertTrue(late.queued());
        assertThrows(QueueFullException.class, () -> batch.poll(Duration.ZERO), "now batch is the lightest class waiting");
        assertEquals(Map.of("interactive", 2, "background", 0, "batch", 0), limiter.view().queuedByClass());
    }

    @Test
    void equalWeightsKeepTodaysRuleTheArrivalIsRefused() throws Exception {
        limiter.tryAcquire();
        Ticket first = limiter.enqueue(1, new QueueClass("a", 2));
        assertThrows(QueueFullException.class, () -> limiter.enqueue(1, new QueueClass("b", 2)));
        assertTrue(first.queued());
    }
}
