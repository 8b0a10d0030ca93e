package shaper.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.limit.ManualTimeSource;
import shaper.limit.Permit;
import shaper.limit.QueueClass;
import shaper.limit.QueueFullException;
import shaper.limit.Ticket;

/** Priority classes in a token budget, on a manual clock: the fair order picks the head, overflow refuses the lightest class. */
class BudgetClassesTest {
    private static final QueueClass INTERACTIVE = new QueueClass("interactive", 4);
    private static final QueueClass BACKGROUND = new QueueClass("background", 1);

    private final ManualTimeSource time = new ManualTimeSource();
    /** 600 input tokens a minute: 10 a second. */
    private final TokenBudget budget = new TokenBudget("p", new BudgetConfig(0, 0, 600, 0, false), time);

    private Ticket join(long input, QueueClass cls, int depth) throws Exception {
        return budget.join(new Cost("m", input, 0), depth, new shaper.limit.QueuePlace(cls, shaper.limit.QueueClient.ANONYMOUS), true);
    }

    private static Permit granted(Ticket t) throws Exception {
        return t.poll(Duration.ZERO);
    }

    @Test
    void anInteractiveArrivalIsTheHeadAndFitsWhereABackgroundHeadDoesNot() throws Exception {
        assertNotNull(granted(join(500, INTERACTIVE, 0)));
        Ticket large = join(400, BACKGROUND, 0);
        assertNull(granted(large), "100 left");
        assertNotNull(granted(join(10, INTERACTIVE, 0)), "its class's turn comes first, and 10 fit");
        Ticket next = join(10, INTERACTIVE, 0);
        assertNull(granted(next), "interactive had its turn: the background head blocks everyone behind it");
        assertEquals(Map.of("interactive", 1, "background", 1), budget.queuedByClass());
        time.advance(Duration.ofSeconds(31)); // 90 + 310 = 400
        assertNotNull(granted(large), "not starved: served at its weight's share");
        assertNull(granted(next));
        time.advance(Duration.ofSeconds(1));
        assertNotNull(granted(next));
    }

    @Test
    void classesShareGrantsByWeightAndKeepTheirOwnOrder() throws Exception {
        assertNotNull(granted(join(600, INTERACTIVE, 0)));
        Ticket[] background = new Ticket[3];
        Ticket[] interactive = new Ticket[5];
        for (int i = 0; i < background.length; i++) {
            background[i] = join(60, BACKGROUND, 0);
        }
        for (int i = 0; i < interactive.length; i++) {
            interactive[i] = join(60, INTERACTIVE, 0);
        }
        StringBuilder order = new StringBuilder();
        for (int grant = 0; grant < 8; grant++) {
            time.advance(Duration.ofSeconds(6)); // one request's 60 tokens
            for (int i = 0; i < background.length; i++) {
                if (background[i] != null && granted(background[i]) != null) {
                    order.append('b').append(i).append(' ');
                    background[i] = null;
                }
            }
            for (int i = 0; i < interactive.length; i++) {
                if (interactive[i] != null && granted(interactive[i]) != null) {
                    order.append('i').append(i).append(' ');
                    interactive[i] = null;
                }
            }
        }
        assertEquals("i0 b0 i1 i2 i3 i4 b1 b2", order.toString().trim(), "4:1 while both wait, FIFO within each");
    }

    @Test
    void aFullQueueRefusesTheNewestWaiterOfTheLightestClassWithItsRetryAfter() throws Exception {
        assertNotNull(granted(join(600, INTERACTIVE, 0)));
        Ticket oldBackground = join(60, BACKGROUND, 2);
        Ticket newBackground = join(60, BACKGROUND, 2);
        QueueFullException self = assertThrows(QueueFullException.class, () -> join(60, BACKGROUND, 2), "a light arrival is itself refused");
        assertEquals(Duration.ofSeconds(6), self.retryAfter().orElseThrow());
        Ticket interactive = join(60, INTERACTIVE, 2);
        QueueFullException displaced = assertThrows(QueueFullException.class, () -> granted(newBackground));
        assertEquals(Duration.ofSeconds(6), displaced.retryAfter().orElseThrow(), "the displaced client is told when tokens come");
        assertTrue(oldBackground.queued());
        assertEquals(2, budget.queued());
        time.advance(Duration.ofSeconds(6));
        assertNotNull(granted(interactive), "the heavier arrival took the place, and its turn is first");
        time.advance(Duration.ofSeconds(6));
        assertNotNull(granted(oldBackground));
    }
}
