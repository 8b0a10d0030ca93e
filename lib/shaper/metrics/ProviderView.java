package shaper.metrics;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import shaper.admission.ProviderLimiters;
import shaper.breaker.CircuitBreaker;
import shaper.budget.TokenBudget;
import shaper.cluster.ClusterBackend;
import shaper.observe.ExchangeCounters;
import shaper.observe.Journal;
import shaper.priority.PriorityClassifier;
import shaper.proxy.ProviderAssembly;

/**
 * What the exporter reads of one provider, all through snapshots: limiter views, the breaker's
 * snapshot, the journal's in-flight views and the exchange counters.
 *
 * @param name     the {@code provider} label value
 * @param limits   the provider's {@code -limit} patterns, for the per-route labels
 * @param cluster  the cluster link, asked at scrape time (its state without a Redis call, the shared
 *                 queue with one); empty when the limiters are in-process
 * @param priority the provider's priority classes and the count of unknown ones named in headers
 * @param budgetQueued requests waiting for the provider's token budget, per priority class; empty without a budget
 */
public record ProviderView(String name, List<String> limits, ProviderLimiters limiters, CircuitBreaker breaker, Journal journal,
                           ExchangeCounters counters, Optional<ClusterBackend> cluster, PriorityClassifier priority,
                           Supplier<Map<String, Integer>> budgetQueued) {
    public ProviderView {
        Objects.requireNonNull(name, "name");
        limits = List.copyOf(limits);
        Objects.requireNonNull(limiters, "limiters");
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(journal, "journal");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(budgetQueued, "budgetQueued");
    }

    /** The view of an assembled provider. */
    public static ProviderView of(ProviderAssembly p) {
        return new ProviderView(p.name(), p.config().admission().limits(), p.limiters(), p.breaker(), p.publisher().journal(),
                p.publisher().counters(), p.cluster(), p.priority(),
                () -> p.tokens().budget().map(TokenBudget::queuedByClass).orElse(Map.of()));
    }
}
