package shaper.budget;

import java.time.Instant;
import java.util.Map;

import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.RateLimitKind;
import shaper.usage.TokenUsage;

/**
 * Where one provider's token buckets and its {@code retry-after} hold live: in this process
 * ({@link BudgetBuckets}, the default) or in Redis, shared by every instance of one namespace
 * (cluster mode). The {@link TokenBudget} keeps its FIFO and wake-ups in this process either way
 * and calls its store under its own lock, so a store needs no locking of its own for one budget.
 *
 * <p>{@code claimant} numbers the budget's waiting head: a shared store lets that head reserve
 * the buckets cluster-wide, so a large request at one instance's head is not starved by small
 * ones taken elsewhere; a process-local store ignores it (its one FIFO already orders everyone).
 */
public interface BucketStore {
    /** What keeps a cost from being taken ({@link RateLimitKind#word()} or {@link TokenBudget#HOLD}) and for how long at least, in nanos. */
    record Block(String what, long nanos) {
    }

    /**
     * Takes {@code cost} from every bucket now, or says what blocks it.
     *
     * @return null when taken
     * @throws Unavailable a shared store is unreachable and the budget fails closed; nothing was taken
     */
    Block take(Cost cost, long claimant);

    /**
     * Tells the store how to wake its budget's queue when waiting may have ended for a reason of the
     * store's own (a shared store's link went down or came back). Called once, by the budget.
     */
    default void onChange(Runnable wake) {
    }

    /** The waiting head {@code claimant} left without its tokens: any reservation it made goes. */
    default void leave(long claimant) {
    }

    /** A cost granted but never used goes back whole. */
    void giveBack(Cost cost);

    /** Each bucket gets back (or pays) actual − estimate; nothing reported returns the whole estimate. */
    void settle(Cost estimate, TokenUsage actual);

    /** What one response's headers said: limits restated, levels capped, a kind announced becomes a budget, a retry-after holds. */
    void restate(RateLimitHeaders.Observation o, Instant wallNow);

    /**
     * The wait behind nobody, counting the hold: the {@code Retry-After} of a full queue, in nanos.
     *
     * @throws Unavailable as for {@link #take}
     */
    long wouldWait(Cost cost);

    /** Each bucket's level now (may be negative: a debt), by kind. */
    Map<RateLimitKind, Double> levels();

    /** A shared store cannot be reached and its budget fails closed ({@code -limiter-redis-fallback closed}). */
    final class Unavailable extends RuntimeException {
        public Unavailable(String reason) {
            super(reason, null, false, false);
        }
    }
}
