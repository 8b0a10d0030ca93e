package shaper.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import shaper.budget.BucketStore;
import shaper.budget.BudgetBuckets;
import shaper.budget.BudgetConfig;
import shaper.budget.Cost;
import shaper.limit.TimeSource;
import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.RateLimitKind;
import shaper.ratelimit.RateLimitReading;
import shaper.usage.TokenUsage;

/**
 * One provider's token buckets in Redis ({@link BucketScripts}), shared by every instance of the
 * namespace, so several shapers pace one account together: what one takes, settles or learns
 * from the upstream's headers (limits, remaining, a {@code retry-after} hold) the others see.
 *
 * <p>While the {@link RedisLink} is down, {@code -limiter-redis-fallback local} paces by this
 * instance's own buckets, which have mirrored everything this instance took, settled and learned
 * while Redis was up (so the switch does not hand it a fresh budget; the cluster runs at most
 * instances × the budget during the outage); {@code closed} refuses ({@link BucketStore.Unavailable}:
 * a {@code 503} in the client's dialect, and the waiting queue fails with it). The link's
 * transitions wake the budget's queue, so waiters move between the two at once. Called under the
 * owning budget's lock.
 */
final class RedisTokenBuckets implements BucketStore, LinkListener {
    /** How long past its expected fit a head's reservation outlives a silent (crashed) instance. */
    static final Duration GRACE = Duration.ofSeconds(2);

    private final RedisLink link;
    private final String baseKey;
    private final List<String> keys;
    private final List<String> statics;
    private final String claimPrefix;
    private final BudgetBuckets local;
    private volatile Runnable wake = () -> { };

    RedisTokenBuckets(String namespace, BudgetConfig config, RedisLink link, TimeSource time) {
        this.link = link;
        this.baseKey = LeaseCalls.baseKey(namespace, "budget:tokens");
        this.keys = List.of(baseKey + ":b", baseKey + ":hold", baseKey + ":w");
        this.statics = List.of(Long.toString(config.rpm()), Long.toString(config.tpm()), Long.toString(config.itpm()),
                Long.toString(config.otpm()));
        this.claimPrefix = link.newId() + "/";
        this.local = new BudgetBuckets(config, time);
        link.register(baseKey, this);
    }

    @Override
    public void onChange(Runnable wake) {
        this.wake = wake;
    }

    @Override
    public Block take(Cost cost, long claimant) {
        if (link.up()) {
            try {
                List<String> args = new ArrayList<>(6);
                args.add(claimPrefix + claimant);
                args.addAll(List.of(amounts(cost, 1)));
                args.add(Long.toString(GRACE.toMillis()));
                List<Object> reply = list(eval(BucketScripts.TAKE, args.toArray(String[]::new)));
                if (LeaseCalls.number(reply.getFirst()) == 1) {
                    local.charge(cost);
                    return null;
                }
                return new Block(text(reply.get(1)), Duration.ofMillis(LeaseCalls.number(reply.get(2))).toNanos());
            } catch (RedisUnavailable e) {
                // the fallback below
            }
        }
        refuseIfClosed();
        return local.take(cost, claimant);
    }

    @Override
    public void leave(long claimant) {
        if (link.up()) {
            try {
                eval(BucketScripts.LEAVE, claimPrefix + claimant);
            } catch (RedisUnavailable e) {
                // the reservation lapses after its grace
            }
        }
    }

    @Override
    public void giveBack(Cost cost) {
        local.giveBack(cost);
        adjust(amounts(cost, -1));
    }

    @Override
    public void settle(Cost estimate, TokenUsage actual) {
        local.settle(estimate, actual);
        List<String> d = new ArrayList<>(4);
        for (RateLimitKind k : RateLimitKind.values()) {
            d.add(Long.toString(estimate.overrun(k, actual)));
        }
        adjust(d.toArray(String[]::new));
    }

    /** What each bucket pays (or gets back); lost while Redis is away, as the outage's spending is. */
    private void adjust(String... perKind) {
        if (link.up()) {
            try {
                eval(BucketScripts.ADJUST, perKind);
            } catch (RedisUnavailable e) {
                // not charged to the shared buckets
            }
        }
    }

    @Override
    public void restate(RateLimitHeaders.Observation o, Instant wallNow) {
        local.restate(o, wallNow);
        if (!link.up()) {
            return;
        }
        List<String> args = new ArrayList<>(9);
        for (RateLimitKind k : RateLimitKind.values()) {
            RateLimitReading r = o.readings().get(k);
            args.add(Long.toString(r == null ? -1 : r.limit()));
            args.add(Long.toString(r == null ? -1 : r.remaining()));
        }
        args.add(Long.toString(o.retryUntil().map(until -> Math.max(0, Duration.between(wallNow, until).toMillis())).orElse(0L)));
        try {
            eval(BucketScripts.RESTATE, args.toArray(String[]::new));
        } catch (RedisUnavailable e) {
            // the local buckets learned it
        }
    }

    @Override
    public long wouldWait(Cost cost) {
        if (link.up()) {
            try {
                return Duration.ofMillis(LeaseCalls.number(eval(BucketScripts.WAIT, amounts(cost, 1)))).toNanos();
            } catch (RedisUnavailable e) {
                // the fallback below
            }
        }
        refuseIfClosed();
        return local.wouldWait(cost);
    }

    @Override
    public Map<RateLimitKind, Double> levels() {
        if (link.up()) {
            try {
                List<Object> reply = list(eval(BucketScripts.LEVELS));
                Map<RateLimitKind, Double> out = new EnumMap<>(RateLimitKind.class);
                for (int i = 0; i + 1 < reply.size(); i += 2) {
                    out.put(RateLimitKind.values()[(int) LeaseCalls.number(reply.get(i)) - 1], Double.parseDouble(text(reply.get(i + 1))));
                }
                return out;
            } catch (RedisUnavailable e) {
                // the local view below
            }
        }
        return local.levels();
    }

    private void refuseIfClosed() {
        if (link.fallback() == RedisFallback.CLOSED) {
            throw new Unavailable(LocalFallback.UNAVAILABLE);
        }
    }

    // ---- the link's transitions: waiters move between Redis and the fallback at once ----

    @Override
    public void granted(String ticketId) {
        // budgets are not granted by push: a head asks again when its wait is over
    }

    @Override
    public void refused(String ticketId) {
        // budgets are never refused by push: a full budget queue refuses the arrival in this process
    }

    @Override
    public void linkDown() {
        wake.run();
    }

    @Override
    public void linkUp() {
        wake.run();
    }

    // ---- calls ----

    private Object eval(String script, String... extra) {
        List<String> args = new ArrayList<>(statics.size() + extra.length);
        args.addAll(statics);
        args.addAll(List.of(extra));
        return link.eval(script, keys, args);
    }

    /** The four per-kind amounts of {@code cost} times {@code sign}, as script arguments. */
    private static String[] amounts(Cost cost, int sign) {
        String[] out = new String[RateLimitKind.values().length];
        for (RateLimitKind k : RateLimitKind.values()) {
            out[k.ordinal()] = Long.toString(sign * cost.of(k));
        }
        return out;
    }

    private static List<Object> list(Object reply) {
        if (reply instanceof List<?> l) {
            return new ArrayList<>(l);
        }
        throw new IllegalStateException("budget script answered " + reply + " where a list was expected");
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(o);
    }
}
