package shaper.server;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import shaper.auth.ClientKeys;
import shaper.metrics.ProviderView;
import shaper.proxy.ProviderAssembly;
import shaper.proxy.ProxyHandler;
import shaper.proxy.Upstreams;
import shaper.reload.ConfigDiff;
import shaper.reload.ReloadStatus;
import shaper.reload.ReloadTarget;
import shaper.proxy.RoutedMount;
import shaper.routing.Affinity;
import shaper.routing.RoutingConfig;
import shaper.settings.ProviderConfig;
import shaper.settings.ShaperConfig;

/**
 * The providers in force, replaced whole by a reload. {@link #prepare} builds every provider of the
 * new configuration (secrets read again, client keys too) beside the running ones; committing swaps
 * the mount table and reconfigures the kept limiters, in that order nowhere observable apart. A
 * request already routed keeps the {@link ProviderAssembly} it started with, so in-flight exchanges
 * of a removed or changed provider finish on their old upstream; queued ones wait on the kept limiters.
 * What a reload leaves behind (a removed provider, pools of a changed upstream) is closed when the
 * server stops, since its last exchanges may still be running.
 */
public final class LiveProviders implements ReloadTarget {
    private final ServerServices services;
    private final MountTable table;
    private final ReloadStatus status = ReloadStatus.fixed();
    /** Open Responses WebSocket sessions per provider: kept across reloads, as the sessions are. */
    private final shaper.proxy.ws.SessionGauge sessions = new shaper.proxy.ws.SessionGauge();
    /** Assemblies a reload replaced or removed: their queued requests are drained at stop. */
    private final List<ProviderAssembly> retired = new ArrayList<>();
    /** What only retired assemblies hold (removed providers whole, the pools of a changed upstream): closed at stop. */
    private final List<AutoCloseable> leftBehind = new ArrayList<>();
    private volatile List<ProviderAssembly> current;
    /** The routed mount in force, empty when none; replaced with the providers. */
    private volatile Optional<RoutedMount> routed;
    /** Which target each session last used: kept across reloads while the affinity settings stay. */
    private Affinity affinity;

    private LiveProviders(ServerServices services, List<ProviderAssembly> providers, RoutingConfig routing) {
        this.services = services;
        this.current = List.copyOf(providers);
        this.affinity = new Affinity(routing.affinity(), services.time()::nanoTime);
        this.routed = routed(routing, providers, affinity);
        this.table = new MountTable(handlers(providers), mount(routed), services.keys(),
                new HealthHandler(this::configs, status, this::limiterLink, this::routingHealth), services.log());
    }

    /** The startup providers, assembled and mounted; on failure {@code services} are closed. */
    static LiveProviders assemble(ShaperConfig config, ServerServices services) {
        try {
            return new LiveProviders(services, ProviderAssembler.assembleAll(config, services), config.server().routing());
        } catch (RuntimeException | Error e) {
            services.close();
            throw e;
        }
    }

    private List<ProxyHandler> handlers(List<ProviderAssembly> providers) {
        return providers.stream().map(p -> new ProxyHandler(p, services.parts())).toList();
    }

    private static Optional<RoutedMount> routed(RoutingConfig routing, List<ProviderAssembly> providers, Affinity affinity) {
        if (!routing.enabled()) {
            return Optional.empty();
        }
        Map<String, ProviderAssembly> byName = new LinkedHashMap<>();
        providers.forEach(p -> byName.put(p.name(), p));
        return Optional.of(new RoutedMount(routing, byName, affinity));
    }

    private Optional<MountTable.Routed> mount(Optional<RoutedMount> mount) {
        return mount.map(m -> new MountTable.Routed(m.config().prefix().orElseThrow(), new ProxyHandler(m, services.parts())));
    }

    /** The routes of the routed mount in force, in configuration order; empty when there is none. */
    public List<shaper.routing.ModelRoute> modelRoutes() {
        return routed.map(m -> m.config().routes()).orElse(List.of());
    }

    /** The routed mount as {@code /__shaper/health} shows it. */
    private Optional<Map<String, Object>> routingHealth() {
        return routed.map(m -> {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("prefix", m.config().prefix().orElseThrow().toString());
            doc.put("routes", m.health());
            doc.put("fallback_after", m.config().fallbackAfterText());
            doc.put("pick", m.config().pick().label());
            doc.put("affinity", m.config().affinity().enabled());
            return doc;
        });
    }

    /** A provider's Redis link as the health object; empty when its limiters are in-process or it is gone. */
    private java.util.Optional<Map<String, Object>> limiterLink(String name) {
        return current.stream().filter(p -> p.name().equals(name)).findFirst()
                .flatMap(ProviderAssembly::cluster).map(c -> c.snapshot().health());
    }

    /** The named provider in force. */
    ProviderAssembly assembly(String name) {
        return current.stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no provider " + name));
    }

    /** What {@code /metrics} reads of the providers in force, at each scrape. */
    shaper.proxy.ws.SessionGauge sessions() {
        return sessions;
    }

    List<ProviderView> views() {
        return current.stream().map(ProviderView::of).toList();
    }

    MountTable table() {
        return table;
    }

    /** The client keys in force (a reload may replace them). */
    public ClientKeys keys() {
        return table.keys();
    }

    /** Reloads so far (generation, file hash, counts), shown by health and metrics. */
    public ReloadStatus status() {
        return status;
    }

    /** The settings of the providers in force, in configuration order. */
    public List<ProviderConfig> configs() {
        return current.stream().map(ProviderAssembly::config).toList();
    }

    /** The providers in force, in configuration order (one list: a reload replaces it whole, so it never mixes generations). */
    public List<ProviderAssembly> current() {
        return current;
    }

    /** Every assembly this server has served with, in force or retired by a reload: a stop drains all their queues. */
    synchronized List<ProviderAssembly> all() {
        List<ProviderAssembly> all = new ArrayList<>(current);
        all.addAll(retired);
        return all;
    }

    /** Closes the providers in force and what reloads left behind (the server is stopping). */
    synchronized void close() {
        current.forEach(ServerServices::closeQuietly);
        leftBehind.forEach(ServerServices::closeQuietly);
    }

    @Override
    public Runnable prepare(ConfigDiff diff) {
        ClientKeys keys = ClientKeys.resolve(diff.applied().server().clientKeys(), services.env());
        ServerServices next = services.withKeys(keys);
        Map<String, ProviderAssembly> running = new LinkedHashMap<>();
        current.forEach(p -> running.put(p.name(), p));
        List<Runnable> inPlace = new ArrayList<>();
        List<ProviderAssembly> built = ProviderAssembler.reassembleAll(diff.applied(), next, running, inPlace);
        List<ProxyHandler> handlers = handlers(built);
        RoutingConfig routing = diff.applied().server().routing();
        return () -> commit(new Prepared(built, handlers, keys, inPlace), routing);
    }

    /** A reload's providers, their handlers, the client keys and the in-place reconfigurations, built before anything changes. */
    private record Prepared(List<ProviderAssembly> built, List<ProxyHandler> handlers, ClientKeys keys, List<Runnable> inPlace) {
    }

    private synchronized void commit(Prepared next, RoutingConfig routing) {
        List<ProviderAssembly> built = next.built();
        next.inPlace().forEach(Runnable::run);
        List<ProviderAssembly> before = current;
        current = built;
        if (!routing.affinity().equals(affinity.config())) {
            affinity = new Affinity(routing.affinity(), services.time()::nanoTime);
        }
        // a session whose target no route names any more starts afresh
        Set<String> targets = new java.util.HashSet<>();
        routing.routes().forEach(r -> r.targets().forEach(t -> targets.add(t.provider())));
        before.stream().map(ProviderAssembly::name).filter(n -> !targets.contains(n)).forEach(affinity::forgetProvider);
        routed = routed(routing, built, affinity);
        table.replace(next.handlers(), mount(routed), next.keys());
        Set<Upstreams> inUse = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        built.forEach(p -> inUse.add(p.upstreams()));
        for (ProviderAssembly p : before) {
            retired.add(p);
            if (built.stream().noneMatch(b -> b.name().equals(p.name()))) {
                leftBehind.add(p);
            } else if (!inUse.contains(p.upstreams())) {
                leftBehind.add(p.upstreams()::close);
            }
        }
    }

    /** Each provider's slot counts by limiter, in provider order: what the tracer's slot gauges read. */
    java.util.Map<String, java.util.List<shaper.limit.LimiterSnapshot>> slotCounts() {
        return current().stream().collect(java.util.stream.Collectors.toMap(ProviderAssembly::name,
                p -> p.limiters().views().counts(), (a, b) -> a, java.util.LinkedHashMap::new));
    }
}
