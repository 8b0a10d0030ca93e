package shaper.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.prometheus.metrics.model.registry.Collector;
import shaper.budget.ProviderTokens;
import shaper.budget.TokenBudget;
import shaper.ratelimit.RateLimitKind;
import shaper.ratelimit.RateLimitReading;

/**
 * The token-economics families: usage per model, the upstream's stated rate limits, and the
 * budgets. All callbacks read snapshots at scrape time; a provider without a budget exports no
 * budget series, a kind the upstream never stated exports no rate-limit series.
 */
final class TokenFamilies {
    /** One provider's label value and its token state. */
    record View(String provider, ProviderTokens tokens) {
    }

    private TokenFamilies() {
    }

    static List<Collector> collectors(List<View> views) {
        return List.of(
                Series.TOKENS.counter().callback(cb -> views.forEach(v -> v.tokens().counters().tokens()
                                .forEach(s -> cb.call(s.value(), v.provider(), s.model(), s.label())))).build(),
                Series.MODEL_REQUESTS.counter().callback(cb -> views.forEach(v -> v.tokens().counters().requests()
                                .forEach(s -> cb.call(s.value(), v.provider(), s.model(), s.label())))).build(),
                rateLimit(views, Series.UPSTREAM_RATELIMIT_LIMIT, (r, now) -> r.limit() < 0 ? null : (double) r.limit()),
                rateLimit(views, Series.UPSTREAM_RATELIMIT_REMAINING, (r, now) -> r.remaining() < 0 ? null : (double) r.remaining()),
                rateLimit(views, Series.UPSTREAM_RATELIMIT_RESET_SECONDS, (r, now) -> r.reset() == null ? null
                        : Math.max(0, Duration.between(now, r.reset()).toNanos() / 1e9)),
                Series.BUDGET_LEVEL.gauge().callback(cb -> views.forEach(v -> v.tokens().budget().ifPresent(b -> b.levels()
                                .forEach((kind, level) -> cb.call(level, v.provider(), kind.label()))))).build(),
                Series.BUDGET_WAITS.counter().callback(cb -> views.forEach(v -> v.tokens().budget().map(TokenBudget::waits).orElse(Map.of())
                                .forEach((kind, n) -> cb.call(n, v.provider(), kind)))).build());
    }

    private interface Value {
        /** The value of the reading, or null to export none. */
        Double of(RateLimitReading r, Instant now);
    }

    private static Collector rateLimit(List<View> views, Series s, Value value) {
        return s.gauge().callback(cb -> {
                    Instant now = Instant.now();
                    for (View v : views) {
                        for (Map.Entry<RateLimitKind, RateLimitReading> e : v.tokens().rateLimits().state().readings().entrySet()) {
                            Double d = value.of(e.getValue(), now);
                            if (d != null) {
                                cb.call(d, v.provider(), e.getKey().label());
                            }
                        }
                    }
                }).build();
    }
}
