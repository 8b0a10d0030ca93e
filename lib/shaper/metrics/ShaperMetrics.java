package shaper.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import shaper.Version;
import shaper.breaker.BreakerSnapshot;
import shaper.cluster.ClusterBackend;
import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeRecord;
import shaper.observe.InFlight;
import shaper.observe.RouteKind;
import shaper.reload.ReloadStatus;

/**
 * The Prometheus model of every provider's state, on the Prometheus Java client: gauges and
 * counters are callbacks that read snapshots at scrape time (nothing is counted twice: the
 * counters are {@link ExchangeCounters}, fed by each exchange's record), and the four
 * histograms ({@link ExchangeHistograms}) are observed from each {@link ExchangeRecord}. One family holds
 * every provider's series, so each family is one contiguous block, as the format requires.
 *
 * <p>Thread-safe. A scrape costs one snapshot of each limiter, breaker and in-flight list.
 */
public final class ShaperMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Supplier<List<ProviderView>> providers;
    /** Route labels per {@code -limit} list: computed once per list, a reload's new list gets its own. */
    private final Map<List<String>, RouteLabels> routeLabels = new java.util.concurrent.ConcurrentHashMap<>();
    private final ExchangeHistograms histograms;

    /** Metrics over {@code providers}, with histograms of their own. */
    public ShaperMetrics(List<ProviderView> providers) {
        this(providers, new ExchangeHistograms());
    }

    /**
     * Metrics over {@code providers} whose histograms are {@code histograms}: built before the
     * providers (each provider's publisher observes into them from its first exchange).
     */
    public ShaperMetrics(List<ProviderView> providers, ExchangeHistograms histograms) {
        this(() -> providers, histograms, ReloadStatus.fixed());
    }

    /**
     * Metrics over the providers in force at each scrape (a reload replaces them) and the reloads so far.
     *
     * @param providers read at every scrape
     */
    public ShaperMetrics(Supplier<List<ProviderView>> providers, ExchangeHistograms histograms, ReloadStatus reloads) {
        this.providers = providers;
        gauge(Series.ACTIVE, p -> p.journal().activeCount());
        gauge(Series.QUEUED, p -> p.limiters().views().counts().stream().mapToLong(LimiterSnapshot::waiters).sum());
        gauge(Series.OLDEST_QUEUED_SECONDS, ShaperMetrics::oldestLimitedWait);
        gauge(Series.RETRIES_IN_FLIGHT, p -> p.journal().retriesInFlight());
        QueueSeries.of(this.providers).forEach(this::register);
        counter(Series.CLEAN_PROXIED, s -> s.cleanProxied());
        counter(Series.CLEAN_PASSTHROUGH, s -> s.cleanPassthrough());
        counter(Series.ABORTED, s -> s.aborted());
        counter(Series.CIRCUIT_REJECTED, s -> s.circuitRejected());
        counter(Series.QUEUE_REJECTED, s -> s.queueRejected());
        register(Series.REQUESTS.counter().callback(cb -> this.providers.get().forEach(p -> {
                    ExchangeCounters.Snapshot s = p.counters().snapshot();
                    for (int c = 1; c <= 5; c++) {
                        cb.call(s.status(c), p.name(), c + "xx");
                    }
                })).build());
        register(Series.BREAKER_STATE.gauge()
                .callback(cb -> this.providers.get().stream().filter(p -> p.breaker().config().enabled()).forEach(p -> {
                    BreakerSnapshot b = p.breaker().snapshot();
                    cb.call(b.state().metricValue(), p.name());
                })).build());
        register(Series.ROUTE_QUEUED.gauge()
                .callback(cb -> routeWaits().forEach(w -> cb.call(w.count(), w.provider(), w.method(), w.path()))).build());
        register(Series.ROUTE_OLDEST_QUEUED_SECONDS.gauge()
                .callback(cb -> routeWaits().forEach(w -> cb.call(w.oldestSeconds(), w.provider(), w.method(), w.path()))).build());
        this.histograms = histograms;
        histograms.all().forEach(this::register);
        histograms.counters().forEach(this::register);
        histograms.clients().collectors(this.providers).forEach(this::register);
        // up and transitions are the link's own state; only the shared queue asks Redis (one call per limiter)
        register(Series.LIMITER_BACKEND_UP.gauge().callback(cb -> this.providers.get().forEach(p -> p.cluster()
                        .ifPresent(c -> cb.call(c.snapshot().up() ? 1 : 0, p.name())))).build());
        register(Series.LIMITER_BACKEND_TRANSITIONS.counter().callback(cb -> this.providers.get().forEach(p -> p.cluster()
                        .ifPresent(c -> cb.call(c.snapshot().transitions(), p.name())))).build());
        register(Series.CLUSTER_QUEUED.gauge()
                .callback(cb -> this.providers.get().forEach(p -> p.cluster().map(ClusterBackend::snapshotWithQueue)
                        .filter(l -> l.clusterWaiters() >= 0).ifPresent(l -> cb.call(l.clusterWaiters(), p.name())))).build());
        register(Series.BUILD_INFO.gauge()
                .callback(cb -> this.providers.get().forEach(p -> cb.call(1, p.name(), Version.VERSION))).build());
        register(Series.CONFIG_RELOADS.counter().callback(cb -> {
                    cb.call(reloads.succeeded(), "ok");
                    cb.call(reloads.failed(), "error");
                }).build());
        register(Series.CONFIG_GENERATION.gauge().callback(cb -> cb.call(reloads.generation())).build());
    }

    /** Registers the token families (usage, the upstream's rate limits, budgets) of these providers, by name. */
    public void tokens(List<Map.Entry<String, shaper.budget.ProviderTokens>> tokens) {
        TokenFamilies.collectors(tokens.stream().map(e -> new TokenFamilies.View(e.getKey(), e.getValue())).toList())
                .forEach(this::register);
    }

    /** Registers the gauge of open Responses WebSocket sessions, read per provider name at each scrape. */
    public void webSocketSessions(java.util.function.ToIntFunction<String> open) {
        gauge(Series.WEBSOCKET_SESSIONS, p -> open.applyAsInt(p.name()));
    }

    /** The histogram observer for {@code provider}'s records; see {@link ExchangeHistograms#observer}. */
    public Consumer<ExchangeRecord> observer(String provider) {
        return histograms.observer(provider);
    }

    /** Writes the text exposition (format 0.0.4) of every family. */
    public void write(OutputStream out) throws IOException {
        writer.write(out, registry.scrape());
    }

    /** The text exposition as a string (tests, debugging). */
    public String scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    public String contentType() {
        return writer.getContentType();
    }

    private record RouteWait(String provider, String method, String path, long count, double oldestSeconds) {
    }

    /** Queued limited exchanges grouped by route key, skipping keys no pattern labels and invalid UTF-8 labels. */
    private List<RouteWait> routeWaits() {
        List<RouteWait> out = new java.util.ArrayList<>();
        for (ProviderView p : providers.get()) {
            Map<String, long[]> counts = new java.util.LinkedHashMap<>();
            Map<String, Duration> oldest = new HashMap<>();
            for (InFlight f : p.journal().queued()) {
                if (f.route() == RouteKind.LIMITED) {
                    counts.computeIfAbsent(f.routeKey(), k -> new long[1])[0]++;
                    oldest.merge(f.routeKey(), f.age(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
                }
            }
            RouteLabels labels = routeLabels.computeIfAbsent(p.limits(), RouteLabels::of);
            counts.forEach((key, n) -> {
                RouteLabels.Label l = labels.of(key);
                if (l != null && LabelValues.validUtf8(l.method()) && LabelValues.validUtf8(l.path())) {
                    out.add(new RouteWait(p.name(), l.method(), l.path(), n[0], seconds(oldest.get(key))));
                }
            });
        }
        return out;
    }

    /** The oldest limited waiter's age; passthrough waiters on the global limiter carry no queue age (the spec). */
    private static double oldestLimitedWait(ProviderView p) {
        Optional<Duration> max = p.journal().queued().stream()
                .filter(f -> f.route() == RouteKind.LIMITED)
                .map(InFlight::age).max(Duration::compareTo);
        return max.map(ShaperMetrics::seconds).orElse(0.0);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private void gauge(Series s, ToDoubleFunction<ProviderView> value) {
        register(s.gauge().callback(cb -> providers.get().forEach(p -> cb.call(value.applyAsDouble(p), p.name()))).build());
    }

    private void counter(Series s, ToLongFunction<ExchangeCounters.Snapshot> value) {
        register(s.counter()
                .callback(cb -> providers.get().forEach(p -> cb.call(value.applyAsLong(p.counters().snapshot()), p.name()))).build());
    }

    private void register(io.prometheus.metrics.model.registry.Collector c) {
        registry.register(c);
    }
}
