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
 */
public record ProviderFrame(String name, String prefix, String upstream, LimiterSnapshot pool, List<LimiterSnapshot> routes,
                            LimiterSnapshot global, LimiterSnapshot gate, BreakerSnapshot breaker,
                            ExchangeCounters.Snapshot counters, List<RequestRow> requests, List<InFlightRow> inFlight,
                            List<RouteStat> routeStats) {
    public ProviderFrame {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(counters, "counters");
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

    /** Slots in use on the route limiters and the default pool. */
    public int active() {
        return slotLimiters().stream().mapToInt(LimiterSnapshot::inUse).sum();
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
