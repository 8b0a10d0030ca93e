package shaper.budget;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import shaper.limit.TimeSource;
import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.RateLimitKind;
import shaper.usage.TokenUsage;

/**
 * The process-local {@link BucketStore}: one provider's token buckets by kind and the
 * {@code retry-after} hold over all of them. Also what a shared store falls back to while its Redis
 * is away. Not thread-safe: every call is made under the owning {@link TokenBudget}'s lock (or the
 * shared store's); time comes from the injected {@link TimeSource}.
 */
public final class BudgetBuckets implements BucketStore {
    private final TimeSource time;
    private final Map<RateLimitKind, TokenBucket> buckets = new EnumMap<>(RateLimitKind.class);
    private long holdUntil;
    private boolean holding;

    /** Buckets of {@code config}'s static budgets, full now. */
    public BudgetBuckets(BudgetConfig config, TimeSource time) {
        this.time = Objects.requireNonNull(time, "time");
        long now = time.nanoTime();
        config.statics().forEach((kind, perMinute) -> buckets.put(kind, new TokenBucket(perMinute, now)));
    }

    @Override
    public Block take(Cost cost, long claimant) {
        Block block = block(cost, time.nanoTime());
        if (block == null) {
            charge(cost);
        }
        return block;
    }

    /** Takes {@code cost} whether it fits or not (a level may go negative): what another store granted, mirrored here. */
    public void charge(Cost cost) {
        long now = time.nanoTime();
        buckets.forEach((kind, b) -> b.take(cost.of(kind), now));
    }

    /**
     * What keeps {@code cost} from being taken now ({@link TokenBudget#HOLD}, or the kind whose refill
     * takes longest) and for how long; null when it fits. One pass over the buckets.
     */
    private Block block(Cost cost, long now) {
        if (holding && now < holdUntil) {
            return new Block(TokenBudget.HOLD, holdUntil - now);
        }
        holding = false;
        RateLimitKind worst = null;
        long longest = 0;
        for (Map.Entry<RateLimitKind, TokenBucket> e : buckets.entrySet()) {
            long w = e.getValue().nanosUntil(cost.of(e.getKey()), now);
            if (w > longest) {
                longest = w;
                worst = e.getKey();
            }
        }
        return worst == null ? null : new Block(worst.word(), longest);
    }

    @Override
    public long wouldWait(Cost cost) {
        long now = time.nanoTime();
        long wait = holding ? Math.max(0, holdUntil - now) : 0;
        return Math.max(wait, bucketWait(cost, now));
    }

    private long bucketWait(Cost cost, long now) {
        long wait = 0;
        for (Map.Entry<RateLimitKind, TokenBucket> e : buckets.entrySet()) {
            wait = Math.max(wait, e.getValue().nanosUntil(cost.of(e.getKey()), now));
        }
        return wait;
    }

    @Override
    public void giveBack(Cost cost) {
        long now = time.nanoTime();
        buckets.forEach((kind, b) -> b.adjust(-cost.of(kind), now));
    }

    @Override
    public void settle(Cost estimate, TokenUsage actual) {
        long now = time.nanoTime();
        buckets.forEach((kind, bucket) -> bucket.adjust(estimate.overrun(kind, actual), now));
    }

    @Override
    public void restate(RateLimitHeaders.Observation o, Instant wallNow) {
        long now = time.nanoTime();
        o.readings().forEach((kind, r) -> {
            TokenBucket b = buckets.get(kind);
            if (b == null && r.limit() >= 1) {
                b = new TokenBucket(r.limit(), now);
                buckets.put(kind, b);
            }
            if (b != null) {
                b.restate(r.limit(), r.remaining(), now);
            }
        });
        o.retryUntil().ifPresent(until -> {
            long at = now + Math.max(0, Duration.between(wallNow, until).toNanos());
            if (!holding || at > holdUntil) {
                holdUntil = at;
                holding = true;
            }
        });
    }

    @Override
    public Map<RateLimitKind, Double> levels() {
        long now = time.nanoTime();
        Map<RateLimitKind, Double> out = new LinkedHashMap<>();
        buckets.forEach((kind, b) -> out.put(kind, b.level(now)));
        return out;
    }
}
