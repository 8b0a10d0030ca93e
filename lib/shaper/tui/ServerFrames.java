package shaper.tui;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import shaper.breaker.BreakerSnapshot;
import shaper.config.ProviderConfig;
import shaper.config.ShaperConfig;
import shaper.config.UpstreamUrl;
import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeCounters;
import shaper.proxy.ProviderAssembly;
import shaper.server.ShaperServer;

/**
 * The one place where the dashboard meets the running proxy: it copies the snapshots of each
 * provider's assembly (limiters, breaker, counters, journal) into {@link Frame}s and keeps the dashboard's reset
 * baseline. It never touches a limiter or breaker object. Used by the render loop's thread only.
 */
public final class ServerFrames implements FrameSource {
    private final ShaperServer server;
    private final ShaperConfig config;
    private final LogRing logs;
    private final Clock clock;
    private final Map<String, ExchangeCounters.Snapshot> baseline = new HashMap<>();
    private final Map<String, RouteTally> tallies = new HashMap<>();
    /** Per provider, the journal ids the last reset hid from the request list. */
    private final Map<String, Set<Long>> hidden = new HashMap<>();

    public ServerFrames(ShaperServer server, ShaperConfig config, LogRing logs, Clock clock) {
        this.server = server;
        this.config = config;
        this.logs = logs;
        this.clock = clock;
        config.providers().forEach(p -> tallies.put(p.name(), new RouteTally()));
    }

    @Override
    public Frame take() {
        List<ProviderFrame> providers = new ArrayList<>();
        for (ProviderConfig p : config.providers()) {
            providers.add(provider(p));
        }
        String listen = config.server().bind().host() + ":" + server.port();
        return new Frame(clock.instant(), listen, providers, logs.lines());
    }

    private ProviderFrame provider(ProviderConfig p) {
        String name = p.name();
        // ProviderLimiters.snapshots() lists routes in configuration order, then the default pool,
        // then global and the large-request gate when they are configured.
        ProviderAssembly assembly = server.assembly(name);
        List<LimiterSnapshot> all = assembly.limiters().snapshots();
        boolean hasGlobal = p.admission().globalConcurrency() > 0;
        boolean hasGate = p.gateway().bigCtxTokens() > 0;
        int routes = all.size() - 1 - (hasGlobal ? 1 : 0) - (hasGate ? 1 : 0);
        LimiterSnapshot pool = all.get(routes);
        LimiterSnapshot global = hasGlobal ? all.get(routes + 1) : null;
        LimiterSnapshot gate = hasGate ? all.getLast() : null;
        BreakerSnapshot breaker = p.breaker().enabled() ? assembly.breaker().snapshot() : null;
        ExchangeCounters.Snapshot counters = since(baseline.get(name), assembly.publisher().counters().snapshot());
        List<RequestRow> requests = JournalRows.recent(server, name, hidden.getOrDefault(name, Set.of()));
        RouteTally tally = tallies.get(name);
        tally.absorb(requests);
        return new ProviderFrame(name, p.mountPrefix().path(), UpstreamUrl.display(p.upstream()), pool, all.subList(0, routes),
                global, gate, breaker, counters, requests, JournalRows.inFlight(server, name), tally.stats(clock.instant()));
    }

    @Override
    public void reset() {
        for (ProviderConfig p : config.providers()) {
            baseline.put(p.name(), server.counters(p.name()).snapshot());
            List<RequestRow> rows = JournalRows.recent(server, p.name(), Set.of());
            RouteTally tally = tallies.get(p.name());
            tally.absorb(rows);
            tally.reset();
            hidden.put(p.name(), rows.stream().map(RequestRow::id).collect(Collectors.toUnmodifiableSet()));
        }
        logs.clear();
    }

    /** {@code now} minus {@code base}; {@code now} itself without a base. */
    static ExchangeCounters.Snapshot since(ExchangeCounters.Snapshot base, ExchangeCounters.Snapshot now) {
        if (base == null) {
            return now;
        }
        long[] buckets = now.statusClasses();
        long[] before = base.statusClasses();
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] -= before[i];
        }
        return new ExchangeCounters.Snapshot(now.cleanProxied() - base.cleanProxied(), now.cleanPassthrough() - base.cleanPassthrough(),
                now.aborted() - base.aborted(), now.failed() - base.failed(), now.circuitRejected() - base.circuitRejected(),
                now.queueRejected() - base.queueRejected(), now.queueTimeouts() - base.queueTimeouts(),
                now.clientLeft() - base.clientLeft(), now.upgraded() - base.upgraded(), buckets);
    }
}
