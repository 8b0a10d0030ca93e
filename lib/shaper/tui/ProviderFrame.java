package shaper.tui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import shaper.breaker.BreakerSnapshot;
import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeCounters;

/**
 * Everything the dashboard draws for one provider, copied at one instant. Immutable; renderers read
 * only this, never the limiters or the breaker themselves.
 *
 * @param name        display name ({@code default} for an unnamed single provider)
 * @param prefix      mount prefix, "" for the bare root
 * @param upstream    the upstream as logs show it (no credentials)
 * @param pool        the default pool ({@code -concurrency})
 * @param routes      per-route limiters ({@code -limit PATTERN:N}) in configuration order
 * @param global      the {@code -global-concurrency} limiter; null when not configured
 * @param gate        the large-request gate; null when not configured
 * @param breaker     the circuit breaker; null when it is disabled
 * @param counters    totals of finished exchanges
 * @param requests    recent finished exchanges, newest first
 * @param inFlight    exchanges still running, oldest first
 * @param routeStats  totals per route seen, busiest first
 * @param slots       held slots with their reasons, and how the limits moved
 * @param tokens      usage per model, tokens per minute, the upstream's stated rate limits, the budget
 */
public record ProviderFrame(String name, String prefix, String upstream, LimiterSnapshot pool, List<LimiterSnapshot> routes,
                            LimiterSnapshot global, LimiterSnapshot gate, BreakerSnapshot breaker,
                            ExchangeCounters.Snapshot counters, List<RequestRow> requests, List<InFlightRow> inFlight,
                            List<RouteStat> routeStats, SlotDetail slots, TokenFrame tokens) {
    /** A provider with no held slots, no moved limit and no token usage. */
    public ProviderFrame(String name, String prefix, String upstream, LimiterSnapshot pool, List<LimiterSnapshot> routes,
                         LimiterSnapshot global, LimiterSnapshot gate, BreakerSnapshot breaker,
                         ExchangeCounters.Snapshot counters, List<RequestRow> requests, List<InFlightRow> inFlight,
                         List<RouteStat> routeStats) {
        this(name, prefix, upstream, pool, routes, global, gate, breaker, counters, requests, inFlight, routeStats, SlotDetail.NONE,
                TokenFrame.EMPTY);
    }

    public ProviderFrame {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(slots, "slots");
        Objects.requireNonNull(tokens, "tokens");
        routes = List.copyOf(routes);
        requests = List.copyOf(requests);
        inFlight = List.copyOf(inFlight);
        routeStats = List.copyOf(routeStats);
    }

    /** The limiters that bound limited traffic: the routes' and the default pool. */
    List<LimiterSnapshot> slotLimiters() {
        List<LimiterSnapshot> all = new ArrayList<>(routes);
        all.add(pool);
        return all;
    }

    /** Every limiter, the gate and global included. */
    List<LimiterSnapshot> allLimiters() {
        List<LimiterSnapshot> all = slotLimiters();
        if (global != null) {
            all.add(global);
        }
        if (gate != null) {
            all.add(gate);
        }
        return all;
    }

    /** Slots serving an exchange on the route limiters and the default pool (held ones are not serving). */
    public int active() {
        return slotLimiters().stream().mapToInt(l -> l.inUse() - slots.held(l.name())).sum();
    }

    /** Slots of those limiters held after their exchange ended (failure hold, phantom penalty, cancel cooldown). */
    public int held() {
        return slotLimiters().stream().mapToInt(l -> slots.held(l.name())).sum();
    }

    /** Slots of those limiters in their release cooldown. */
    public int cooling() {
        return slotLimiters().stream().mapToInt(LimiterSnapshot::cooling).sum();
    }

    /** The slots those limiters offer. */
    public int capacity() {
        return slotLimiters().stream().mapToInt(LimiterSnapshot::limit).sum();
    }

    /** Requests waiting on any limiter (route, default, global, gate): one request waits on one at a time. */
    public int queued() {
        return allLimiters().stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    /** The longest current wait on any limiter; zero when nobody waits. */
    public Duration oldestQueued() {
        return allLimiters().stream().map(LimiterSnapshot::oldestWaiterAge).max(Duration::compareTo).orElse(Duration.ZERO);
    }

    /** Responses with a committed status, every class. */
    public long completed() {
        long sum = 0;
        for (long c : counters.statusClasses()) {
            sum += c;
        }
        return sum;
    }
}
