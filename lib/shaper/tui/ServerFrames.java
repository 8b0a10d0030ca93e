package shaper.tui;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import shaper.admission.HeldSlots;
import shaper.admission.LimiterViews;
import shaper.breaker.BreakerSnapshot;
import shaper.config.UpstreamUrl;
import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterView;
import shaper.observe.ExchangeCounters;
import shaper.proxy.ProviderAssembly;
import shaper.server.ShaperServer;
import shaper.settings.ProviderConfig;
import shaper.settings.ShaperConfig;

/**
 * The one place where the dashboard meets the running proxy: it copies the snapshots of each
 * provider's assembly (limiters, breaker, counters, journal) into {@link Frame}s and keeps the dashboard's reset
 * baseline; breaker and cluster-link transitions since the last frame become toasts. It reads only
 * immutable values (snapshots, views, the breaker's transition record) and never changes a limiter
 * or breaker. Used by the render loop's thread only.
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
    private final TransitionToasts transitions;
    /** Per provider, the rows made from journal records last frame. */
    private final Map<String, Map<Long, RequestRow>> rows = new HashMap<>();

    /** @param toasts where breaker and cluster-link transitions are posted */
    public ServerFrames(ShaperServer server, ShaperConfig config, LogRing logs, Clock clock, Toasts toasts) {
        this.server = server;
        this.config = config;
        this.logs = logs;
        this.clock = clock;
        this.transitions = new TransitionToasts(toasts);
        config.providers().forEach(p -> tallies.put(p.name(), new RouteTally()));
    }

    private final ModelRouteTally modelRoutes = new ModelRouteTally();
    private final TokenReadings tokens = new TokenReadings();
    private final LimitMoves moves = new LimitMoves();

    @Override
    public Frame take() {
        List<ProviderFrame> providers = new ArrayList<>();
        // those in force, read as one list: a reload may add or remove some between two frames
        for (ProviderAssembly a : server.live().current()) {
            providers.add(provider(a));
            modelRoutes.absorb(a.config().name(), a.publisher().journal().recent());
        }
        String listen = config.server().bind().host() + ":" + server.port();
        return new Frame(clock.instant(), listen, providers, logs.lines(), modelRoutes.stats(server.live().modelRoutes()));
    }

    private ProviderFrame provider(ProviderAssembly assembly) {
        ProviderConfig p = assembly.config();
        String name = p.name();
        LimiterViews views = assembly.limiters().views();
        LimiterSnapshot pool = views.pool().counts();
        List<LimiterSnapshot> routes = views.routes().values().stream().map(LimiterView::counts).toList();
        LimiterSnapshot global = views.global().map(LimiterView::counts).orElse(null);
        LimiterSnapshot gate = views.gate().map(LimiterView::counts).orElse(null);
        BreakerSnapshot breaker = p.breaker().enabled() ? assembly.breaker().snapshot() : null;
        transitions.breaker(name, assembly.breaker());
        transitions.link(name, assembly.cluster().map(shaper.cluster.ClusterBackend::snapshot));
        ExchangeCounters.Snapshot counters = since(baseline.get(name), assembly.publisher().counters().snapshot());
        List<RequestRow> requests = JournalRows.recent(assembly.publisher().journal(), hidden.getOrDefault(name, Set.of()),
                rows.computeIfAbsent(name, k -> new HashMap<>()));
        RouteTally tally = tallies.computeIfAbsent(name, n -> new RouteTally());
        tally.absorb(requests);
        Map<String, Integer> held = new HashMap<>();
        views.byKey().values().forEach(v -> held.put(v.counts().name(), v.held()));
        List<String> reasons = assembly.admission().held().now().keySet().stream().map(HeldSlots.Reason::label).toList();
        SlotDetail slots = new SlotDetail(held, reasons, moves.see(name, views.counts(), clock.instant()), p.adaptive().enabled(),
                p.adaptive().min());
        return new ProviderFrame(name, p.mountPrefix().path(), UpstreamUrl.display(p.upstream()), pool, routes,
                global, gate, breaker, counters, requests, JournalRows.inFlight(assembly.publisher().journal()), tally.stats(clock.instant()), slots,
                tokens.read(name, assembly.tokens(), clock.instant()));
    }

    @Override
    public void reset() {
        for (ProviderAssembly a : server.live().current()) {
            ProviderConfig p = a.config();
            tokens.reset(p.name(), a.tokens());
            baseline.put(p.name(), a.publisher().counters().snapshot());
            List<RequestRow> all = JournalRows.recent(a.publisher().journal(), Set.of(), new HashMap<>());
            RouteTally tally = tallies.computeIfAbsent(p.name(), n -> new RouteTally());
            tally.absorb(all);
            tally.reset();
            hidden.put(p.name(), all.stream().map(RequestRow::id).collect(Collectors.toUnmodifiableSet()));
            modelRoutes.absorb(p.name(), a.publisher().journal().recent());
        }
        modelRoutes.reset();
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
