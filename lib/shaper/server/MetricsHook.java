package shaper.server;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import shaper.cluster.LinkSnapshot;
import shaper.config.BindAddress;
import shaper.metrics.MetricsListener;
import shaper.metrics.ProviderView;
import shaper.metrics.ShaperMetrics;
import shaper.observe.ExchangeRecord;

/**
 * Connects the providers' publishers to the metrics, which can only be built once every provider
 * exists: each publisher gets {@link #observer} up front, and {@link #start} fills it in. Without
 * {@code -metrics-bind} the observers are no-ops and nothing else is built.
 */
final class MetricsHook {
    private final boolean enabled;
    private final Map<String, Consumer<ExchangeRecord>> observers = new ConcurrentHashMap<>();
    private MetricsListener listener;

    MetricsHook(boolean enabled) {
        this.enabled = enabled;
    }

    /** The histogram observer of {@code provider}'s records; a no-op until the metrics exist (or forever without them). */
    Consumer<ExchangeRecord> observer(String provider) {
        if (!enabled) {
            return record -> { };
        }
        return record -> {
            Consumer<ExchangeRecord> o = observers.get(provider);
            if (o != null) {
                o.accept(record);
            }
        };
    }

    /** Builds the metrics over {@code mounts} and binds their listener. */
    MetricsListener start(BindAddress bind, List<Mount> mounts, Function<String, Optional<LinkSnapshot>> limiterBackends)
            throws IOException {
        ShaperMetrics metrics = new ShaperMetrics(mounts.stream()
                .map(m -> new ProviderView(m.config().name(), m.config().admission().limits(), m.limiters(), m.breaker(),
                        m.publisher().journal(), m.publisher().counters(), () -> limiterBackends.apply(m.config().name())))
                .toList());
        metrics.tokens(mounts.stream().map(m -> Map.entry(m.config().name(), m.handler().tokens())).toList());
        mounts.forEach(m -> observers.put(m.config().name(), metrics.observer(m.config().name())));
        listener = MetricsListener.start(bind, metrics);
        return listener;
    }

    /** The metrics listener's port, once bound. */
    Optional<Integer> port() {
        return listener == null ? Optional.empty() : Optional.of(listener.port());
    }
}
