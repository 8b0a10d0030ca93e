package shaper.budget;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.RateLimitKind;
import shaper.usage.TokenUsage;

/**
 * One provider's token buckets by kind and the {@code retry-after} hold over all of them: what a
 * cost needs and how long it would wait, the taking, the settling and the restating from headers.
 * It exists so {@link TokenBudget} keeps only the FIFO and its wake-ups. Not thread-safe: every
 * call is made under {@link TokenBudget}'s lock; time is the caller's {@code now} in nanos.
 */
final class BudgetBuckets {
    private final Map<RateLimitKind, TokenBucket> buckets = new EnumMap<>(RateLimitKind.class);
    private long holdUntil;
    private boolean holding;

    BudgetBuckets(BudgetConfig config, long now) {
        config.statics().forEach((kind, perMinute) -> buckets.put(kind, new TokenBucket(perMinute, now)));
    }

    /** What keeps {@code cost} from being taken now: {@link TokenBudget#HOLD}, a kind's word, or null when it fits. */
    String blocker(Cost cost, long now) {
        if (holding && now < holdUntil) {
            return TokenBudget.HOLD;
        }
        holding = holding && now < holdUntil;
        RateLimitKind worst = null;
        long longest = 0;
        for (Map.Entry<RateLimitKind, TokenBucket> e : buckets.entrySet()) {
            long w = e.getValue().nanosUntil(cost.of(e.getKey()), now);
            if (w > longest) {
                longest = w;
                worst = e.getKey();
            }
        }
        return worst == null ? null : worst.word();
    }

    /** How long the blocker named {@code blocker} keeps {@code cost} waiting. */
    long waitFor(String blocker, Cost cost, long now) {
        return blocker.equals(TokenBudget.HOLD) ? holdUntil - now : bucketWait(cost, now);
    }

    /** The wait behind nobody, counting the hold: the {@code Retry-After} of a full queue. */
    long wouldWait(Cost cost, long now) {
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

    void take(Cost cost, long now) {
        buckets.forEach((kind, b) -> b.take(cost.of(kind), now));
    }

    /** A cost granted but never used goes back whole. */
    void giveBack(Cost cost, long now) {
        buckets.forEach((kind, b) -> b.adjust(-cost.of(kind), now));
    }

    /** Each bucket gets back (or pays) actual − estimate; nothing reported returns the whole estimate. */
    void settle(Cost estimate, TokenUsage actual, long now) {
        boolean none = actual.source() == TokenUsage.Source.NONE;
        buckets.forEach((kind, bucket) -> {
            long used = none ? 0 : switch (kind) {
                case REQUESTS -> 1;
                case TOKENS -> actual.allInput() + actual.output();
                case INPUT_TOKENS -> actual.input() + actual.cacheWrite(); // cache reads do not count toward ITPM
                case OUTPUT_TOKENS -> actual.output();
            };
            if (kind != RateLimitKind.REQUESTS) {
                bucket.adjust(used - estimate.of(kind), now);
            }
        });
    }

    /** What one response's headers said: limits restated, levels capped, a kind announced becomes a budget, a retry-after holds. */
    void restate(RateLimitHeaders.Observation o, Instant wallNow, long now) {
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

    /** Each bucket's level now (may be negative: a debt), by kind. */
    Map<RateLimitKind, Double> levels(long now) {
        Map<RateLimitKind, Double> out = new LinkedHashMap<>();
        buckets.forEach((kind, b) -> out.put(kind, b.level(now)));
        return out;
    }
}
