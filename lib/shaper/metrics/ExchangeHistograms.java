package shaper.metrics;

import java.util.List;
import java.util.function.Consumer;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import shaper.observe.ExchangeRecord;
import shaper.observe.RouteTrail;

/**
 * The histograms observed from each finished exchange (queue wait, proxy-added time, time to
 * first byte, duration). They exist before any provider does, so each provider's publisher gets
 * its {@link #observer} when the provider is assembled; {@link ShaperMetrics} registers them with
 * the gauges that read the assembled providers. Thread-safe.
 */
public final class ExchangeHistograms {
    private static final double[] QUEUE_BUCKETS = {0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300};
    private static final double[] PROXY_BUCKETS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1};
    private static final double[] RESPONSE_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600};

    private final Histogram queueWait = histogram(Series.QUEUE_WAIT_SECONDS, QUEUE_BUCKETS);
    private final Histogram proxyAdded = histogram(Series.PROXY_ADDED_SECONDS, PROXY_BUCKETS);
    private final Histogram firstByte = histogram(Series.TIME_TO_FIRST_BYTE_SECONDS, RESPONSE_BUCKETS);
    private final Histogram duration = histogram(Series.EXCHANGE_DURATION_SECONDS, RESPONSE_BUCKETS);
    private final Histogram classWait = histogram(Series.CLASS_QUEUE_WAIT_SECONDS, QUEUE_BUCKETS);
    private final Counter routeRequests = Series.ROUTE_REQUESTS.incremented().withoutExemplars().build();
    private final Counter fallbacks = Series.FALLBACKS.incremented().withoutExemplars().build();
    private final Histogram clientWait = histogram(Series.CLIENT_QUEUE_WAIT_SECONDS, QUEUE_BUCKETS);
    private final ClientSeries clients = new ClientSeries(clientWait);

    /**
     * The observer of {@code provider}'s records, handed to its publisher. Exchanges that asked no
     * limiter for a slot (circuit rejections, upgrades, unbounded passthrough) add no queue-wait sample.
     */
    public Consumer<ExchangeRecord> observer(String provider) {
        return observer(provider, false);
    }

    /** {@link #observer(String)}, counting each client too ({@code shaper_client_*}) when {@code perClient}. */
    public Consumer<ExchangeRecord> observer(String provider, boolean perClient) {
        DistributionDataPoint wait = queueWait.labelValues(provider);
        DistributionDataPoint added = proxyAdded.labelValues(provider);
        DistributionDataPoint first = firstByte.labelValues(provider);
        DistributionDataPoint total = duration.labelValues(provider);
        return r -> {
            if (r.timings().queueEnd() >= 0) {
                wait.observe(r.timings().queueWait().toNanos() / 1e9);
                if (!r.priorityClass().isEmpty()) {
                    classWait.labelValues(provider, r.priorityClass()).observe(r.timings().queueWait().toNanos() / 1e9);
                }
            }
            r.timings().proxyAdded().ifPresent(d -> added.observe(d.toNanos() / 1e9));
            if (r.timings().firstByte() >= 0) {
                first.observe(r.timings().firstByte() / 1e9);
            }
            total.observe(r.timings().duration().toNanos() / 1e9);
            if (r.routing().routed()) {
                routed(r.routing());
            }
            if (perClient) {
                clients.observe(provider, r);
            }
        };
    }

    /** Where a request of the routed mount went: counted once per exchange, and once per move. */
    private void routed(RouteTrail trail) {
        routeRequests.labelValues(trail.route(), trail.target()).inc();
        for (RouteTrail.Move m : trail.moves()) {
            fallbacks.labelValues(trail.route(), m.from(), m.to(), m.why()).inc();
        }
    }

    List<Histogram> all() {
        return List.of(queueWait, proxyAdded, firstByte, duration, classWait, clientWait);
    }

    ClientSeries clients() {
        return clients;
    }

    /** The routed mount's counters. */
    List<Counter> counters() {
        return List.of(routeRequests, fallbacks);
    }

    private static Histogram histogram(Series s, double[] buckets) {
        return s.histogram().classicOnly().classicUpperBounds(buckets)
                .withoutExemplars() // no tracer here: skip the per-observation exemplar sampling
                .build();
    }
}
