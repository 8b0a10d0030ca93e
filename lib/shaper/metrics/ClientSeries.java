package shaper.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.Collector;
import shaper.observe.ExchangeRecord;
import shaper.observe.InFlight;
import shaper.usage.TokenUsage;

/**
 * The per-client series ({@code shaper_client_*}): requests by status class, tokens by type and the
 * queue wait, observed from each finished exchange; exchanges active and queued, read from the
 * journal at scrape time. The {@code client} label is bounded per provider by {@link ClientLabels}.
 * A provider with {@code -client-metrics=false} has no per-client series at all (a family's labels
 * are fixed, so "without the label" is the provider-wide series already exported). Thread-safe.
 */
final class ClientSeries {
    private static final String[] STATUS = {"none", "1xx", "2xx", "3xx", "4xx", "5xx"};

    /** One client label's counts. */
    private static final class Tally {
        final LongAdder[] status = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};
        final LongAdder input = new LongAdder();
        final LongAdder output = new LongAdder();
    }

    /** One provider's labels and counts. */
    private static final class Provider {
        final ClientLabels labels = new ClientLabels();
        final Map<String, Tally> tallies = new ConcurrentHashMap<>();
    }

    private final Map<String, Provider> providers = new ConcurrentHashMap<>();
    private final Histogram wait;

    ClientSeries(Histogram wait) {
        this.wait = wait;
    }

    /** Counts {@code r}, a finished exchange of {@code provider}. */
    void observe(String provider, ExchangeRecord r) {
        Provider p = providers.computeIfAbsent(provider, k -> new Provider());
        String label = p.labels.of(r.client());
        Tally t = p.tallies.computeIfAbsent(label, k -> new Tally());
        int cls = r.status() / 100;
        t.status[cls >= 1 && cls <= 5 ? cls : 0].increment();
        if (r.usage().source() != TokenUsage.Source.NONE) {
            t.input.add(r.usage().allInput());
            t.output.add(r.usage().output());
        }
        if (r.timings().queueEnd() >= 0) {
            wait.labelValues(provider, label).observe(r.timings().queueWait().toNanos() / 1e9);
        }
    }

    /** The scrape-time families: the counters above and the journal's active and queued exchanges per client. */
    List<Collector> collectors(Supplier<List<ProviderView>> views) {
        return List.of(
                Series.CLIENT_REQUESTS.counter().callback(cb -> providers.forEach((name, p) -> p.tallies.forEach((client, t) -> {
                    for (int i = 0; i < STATUS.length; i++) {
                        cb.call(t.status[i].sum(), name, client, STATUS[i]);
                    }
                }))).build(),
                Series.CLIENT_TOKENS.counter().callback(cb -> providers.forEach((name, p) -> p.tallies.forEach((client, t) -> {
                    cb.call(t.input.sum(), name, client, "input");
                    cb.call(t.output.sum(), name, client, "output");
                }))).build(),
                Series.CLIENT_ACTIVE.gauge().callback(cb -> inFlight(views, InFlight.State.ACTIVE, cb::call)).build(),
                Series.CLIENT_QUEUED.gauge().callback(cb -> inFlight(views, InFlight.State.QUEUED, cb::call)).build());
    }

    /** A sample sink: value, provider, client. */
    private interface Sample {
        void call(double value, String... labels);
    }

    private void inFlight(Supplier<List<ProviderView>> views, InFlight.State state, Sample out) {
        for (ProviderView v : views.get()) {
            Provider p = providers.get(v.name());
            if (p == null) {
                continue; // no exchange finished yet, or -client-metrics=false
            }
            Map<String, Integer> n = new java.util.HashMap<>();
            for (InFlight f : v.journal().inFlight()) {
                if (f.state() == state) {
                    n.merge(p.labels.of(f.client()), 1, Integer::sum);
                }
            }
            p.tallies.keySet().forEach(client -> n.putIfAbsent(client, 0)); // a client seen before reads 0, not absent
            n.forEach((client, count) -> out.call(count, v.name(), client));
        }
    }
}
