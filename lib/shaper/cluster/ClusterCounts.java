package shaper.cluster;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterView;

/**
 * What one {@link ClusterLimiter} reports to the TUI and metrics: slots and the limit in force as
 * Redis counts them (shared by every instance), waiters as this instance's own (queued in Redis, or
 * in the fallback), so a sum over instances counts each waiter once; while Redis is unreachable,
 * the fallback's view. Thread-safe.
 */
final class ClusterCounts {
    private final String name;
    private final int limit;
    private final RedisLink link;
    private final LeaseCalls calls;
    private final LocalFallback fallback;
    private final Supplier<Collection<ClusterTicket>> queued;

    ClusterCounts(String name, int limit, RedisLink link, LeaseCalls calls, LocalFallback fallback,
                  Supplier<Collection<ClusterTicket>> queued) {
        this.name = name;
        this.limit = limit;
        this.link = link;
        this.calls = calls;
        this.fallback = fallback;
        this.queued = queued;
    }

    LimiterSnapshot snapshot() {
        LimiterSnapshot local = fallback.snapshot();
        if (link.up()) {
            try {
                return calls.state().snapshot(name, limit, queued.get().size() + local.waiters());
            } catch (RedisUnavailable e) {
                // the fallback's view below
            }
        }
        return local;
    }

    /** Tickets queued in Redis by every instance; -1 while Redis is unreachable. */
    long clusterWaiters() {
        if (link.up()) {
            try {
                return calls.state().waiters();
            } catch (RedisUnavailable e) {
                // unknown
            }
        }
        return -1;
    }

    /** The snapshot with this instance's waiters per class (Redis keeps the cluster's order, not a count per class). */
    LimiterView view() {
        Map<String, Integer> byClass = new LinkedHashMap<>(fallback.view().queuedByClass());
        for (ClusterTicket t : queued.get()) {
            byClass.merge(t.place().cls().name(), 1, Integer::sum);
        }
        return new LimiterView(snapshot(), 0, byClass);
    }
}
