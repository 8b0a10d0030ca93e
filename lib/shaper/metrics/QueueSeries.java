package shaper.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.prometheus.metrics.model.registry.Collector;
import shaper.limit.LimiterView;
import shaper.limit.QueueClass;

/**
 * The smarter queue's gauges, read from limiter views at scrape time: where each limiter's slots
 * are ({@code shaper_slots}, so {@code active < limit} while requests wait is explained by cooling
 * and held slots), the limit in force ({@code shaper_limit}, moving under
 * {@code -adaptive-concurrency}), waiters per priority class (in the limiters and the token budget)
 * and unknown classes named in headers.
 * The limiter label is the limiter's key: a route class key, {@code default}, {@code global} or
 * {@code large-request gate}.
 */
final class QueueSeries {
    private QueueSeries() {
    }

    static List<Collector> of(Supplier<List<ProviderView>> providers) {
        return List.of(
                Series.SLOTS.gauge().callback(cb -> providers.get().forEach(p -> labelled(p).forEach((key, v) -> {
                            cb.call(v.active(), p.name(), key, "active");
                            cb.call(v.cooling(), p.name(), key, "cooling");
                            cb.call(v.held(), p.name(), key, "held");
                        }))).build(),
                Series.LIMIT.gauge().callback(cb -> providers.get().forEach(p -> labelled(p)
                                .forEach((key, v) -> cb.call(v.counts().effectiveLimit(), p.name(), key)))).build(),
                Series.CLASS_QUEUED.gauge().callback(cb -> providers.get().stream().filter(p -> p.priority().enabled()).forEach(p -> {
                            Map<String, LimiterView> views = p.limiters().views().byKey();
                            Map<String, Integer> forTokens = p.budgetQueued().get();
                            for (QueueClass c : p.priority().classes()) {
                                long n = views.values().stream().mapToLong(v -> v.queuedByClass().getOrDefault(c.name(), 0)).sum();
                                cb.call(n + forTokens.getOrDefault(c.name(), 0), p.name(), c.name());
                            }
                        })).build(),
                Series.PRIORITY_UNKNOWN.counter()
                        .callback(cb -> providers.get().forEach(p -> cb.call(p.priority().unknownHeaderClasses(), p.name()))).build());
    }

    /** The limiters whose key is a valid label value: one that is not valid UTF-8 exports nothing (fail-closed, never sanitized). */
    private static Map<String, LimiterView> labelled(ProviderView p) {
        Map<String, LimiterView> out = new LinkedHashMap<>(p.limiters().views().byKey());
        out.keySet().removeIf(key -> !LabelValues.validUtf8(key));
        return out;
    }
}
