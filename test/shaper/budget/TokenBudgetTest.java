package shaper.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.ManualTimeSource;
import shaper.limit.Permit;
import shaper.limit.QueueFullException;
import shaper.limit.QueueTimeoutException;
import shaper.limit.Ticket;
import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.RateLimitKind;
import shaper.retry.HeaderLookup;
import shaper.usage.TokenUsage;

/** The token buckets and their FIFO, on a manual clock. */
class TokenBudgetTest {
    private final ManualTimeSource time = new ManualTimeSource();

    private static Cost cost(long input, long output) {
        return new Cost("m", input, output);
    }

    private static Permit granted(Ticket t) throws Exception {
        return t.poll(Duration.ZERO);
    }

    @Test
    void bucketsStartFullAndRefillContinuously() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(2, 0, 0, 0, false), time);
        assertNotNull(granted(b.enqueue(cost(0, 0), 0)));
        assertNotNull(granted(b.enqueue(cost(0, 0), 0)));
        Ticket third = b.enqueue(cost(0, 0), 0);
        assertNull(granted(third));
        assertEquals("requests", TokenBudget.waitingFor(third));
        time.advance(Duration.ofSeconds(29));
        assertNull(granted(third), "2 a minute refill one request every 30 s");
        time.advance(Duration.ofSeconds(1));
        assertNotNull(granted(third));
        assertEquals(1L, b.waits().get("requests"));
    }

    @Test
    void aSmallRequestNeverOvertakesALargeOneAtTheHead() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(0, 0, 600, 0, false), time);
        assertNotNull(granted(b.enqueue(cost(500, 0), 0)));
        Ticket large = b.enqueue(cost(400, 0), 0);
        Ticket small = b.enqueue(cost(10, 0), 0);
        assertNull(granted(small), "100 left would fit the small one, but the large one is first");
        assertEquals("input", TokenBudget.waitingFor(large));
        time.advance(Duration.ofSeconds(30)); // +300: 400
        assertNotNull(granted(large));
        assertNull(granted(small));
        time.advance(Duration.ofSeconds(1)); // +10
        assertNotNull(granted(small));
    }

    @Test
    void aRequestLargerThanTheWholeBucketIsAdmittedWhenItIsFullAndLeavesADebt() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(0, 0, 100, 0, false), time);
        assertNotNull(granted(b.enqueue(cost(500, 0), 0)), "a full bucket admits it: never a deadlock");
        Ticket next = b.enqueue(cost(10, 0), 0);
        time.advance(Duration.ofMinutes(4));
        assertNull(granted(next), "the 400 of debt takes four minutes to pay back");
        time.advance(Duration.ofSeconds(6));
        assertNotNull(granted(next));
    }

    @Test
    void settlingReturnsWhatTheEstimateOverstatedAndTakesWhatItUnderstated() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(0, 0, 0, 2000, false), time);
        BudgetPermit p = (BudgetPermit) granted(b.enqueue(cost(0, 1024), 0));
        assertEquals(976, b.levels().get(RateLimitKind.OUTPUT_TOKENS), 0.5);
        p.settle(new TokenUsage("m", 10, 24, 0, 0, 0, TokenUsage.Source.REPORTED));
        assertEquals(1976, b.levels().get(RateLimitKind.OUTPUT_TOKENS), 0.5);
        BudgetPermit q = (BudgetPermit) granted(b.enqueue(cost(0, 100), 0));
        q.settle(new TokenUsage("m", 10, 1000, 0, 0, 0, TokenUsage.Source.REPORTED));
        assertEquals(976, b.levels().get(RateLimitKind.OUTPUT_TOKENS), 0.5);
        q.release();
        assertEquals(976, b.levels().get(RateLimitKind.OUTPUT_TOKENS), 0.5, "settling happens once");
        BudgetPermit unanswered = (BudgetPermit) granted(b.enqueue(cost(0, 500), 0));
        unanswered.release();
        assertEquals(976, b.levels().get(RateLimitKind.OUTPUT_TOKENS), 0.5, "nothing used: the estimate goes back");
    }

    @Test
    void aFullQueueIsRefusedWithTheWaitTheBucketsPredict() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(1, 0, 0, 0, false), time);
        granted(b.enqueue(cost(0, 0), 0));
        b.enqueue(cost(0, 0), 1);
        QueueFullException full = assertThrows(QueueFullException.class, () -> b.enqueue(cost(0, 0), 1));
        assertEquals(Duration.ofMinutes(1), full.retryAfter().orElseThrow(), "the head's wait for the next request");
    }

    @Test
    void aTimedOutHeadLeavesAndTheNextIsTried() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(0, 0, 100, 0, false), time);
        granted(b.enqueue(cost(100, 0), 0));
        Ticket head = b.enqueue(cost(100, 0), 0);
        CompletableFuture<Throwable> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                head.await(Duration.ofSeconds(10));
                return null;
            } catch (Exception e) {
                return e;
            }
        });
        while (time.pending() < 2) { // the refill timer and the waiter's alarm
            Thread.onSpinWait();
        }
        time.advance(Duration.ofSeconds(10));
        assertTrue(waiting.get(10, TimeUnit.SECONDS) instanceof QueueTimeoutException);
        assertFalse(head.queued());
        assertEquals(0, b.queued());
    }

    @Test
    void aCancelledGrantGivesItsTokensBack() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(0, 1000, 0, 0, false), time);
        Ticket t = b.enqueue(cost(300, 200), 0);
        assertTrue(t.cancel());
        assertEquals(1000, b.levels().get(RateLimitKind.TOKENS), 0.5);
    }

    @Test
    void headersRestateTheBucketsAndRetryAfterHoldsTheWholeQueue() throws Exception {
        TokenBudget b = new TokenBudget("p", new BudgetConfig(0, 0, 0, 0, true), time);
        Instant now = Instant.now();
        assertNotNull(granted(b.enqueue(cost(100, 0), 0)), "no budget is known before the first answer");
        b.observe(RateLimitHeaders.read(HeaderLookup.of("anthropic-ratelimit-input-tokens-limit", "6000",
                "anthropic-ratelimit-input-tokens-remaining", "50"), 200, now), now);
        Ticket t = b.enqueue(cost(100, 0), 0);
        assertNull(granted(t), "what remains upstream caps the level");
        time.advance(Duration.ofMillis(500)); // +50
        assertNotNull(granted(t));
        b.observe(RateLimitHeaders.read(HeaderLookup.of("anthropic-ratelimit-input-tokens-remaining", "6000"), 200, now), now);
        assertEquals(0, b.levels().get(RateLimitKind.INPUT_TOKENS), 0.5, "an older answer never raises the level");
        b.observe(RateLimitHeaders.read(HeaderLookup.of("retry-after", "5"), 429, now), now);
        Ticket held = b.enqueue(cost(0, 0), 0);
        assertNull(granted(held));
        assertEquals(TokenBudget.HOLD, TokenBudget.waitingFor(held));
        time.advance(Duration.ofSeconds(5));
        assertNotNull(granted(held));
    }
}
