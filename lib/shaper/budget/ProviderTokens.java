package shaper.budget;

import java.time.Instant;
import java.util.Optional;

import shaper.limit.TimeSource;
import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.UpstreamRateLimits;
import shaper.retry.HeaderLookup;
import shaper.usage.TokenCounters;
import shaper.usage.TokenUsage;

/**
 * One provider's token economics, the one object the request path talks to: what the upstream's
 * headers say ({@link UpstreamRateLimits}, always), what exchanges used ({@link TokenCounters},
 * always), and the {@link TokenBudget} when admission is paced. Thread-safe.
 */
public final class ProviderTokens {
    private final TokenCounters counters = new TokenCounters();
    private final UpstreamRateLimits rateLimits = new UpstreamRateLimits();
    private final TokenBudget budget;
    private final CostEstimator estimator;

    public ProviderTokens(String provider, BudgetConfig config, TimeSource time) {
        this.budget = config.enabled() ? new TokenBudget(provider, config, time) : null;
        this.estimator = budget != null ? budget.estimator() : new CostEstimator();
    }

    /** The budget, when {@code -rpm}/{@code -tpm}/{@code -itpm}/{@code -otpm}/{@code -budget-from-headers} pace admission. */
    public Optional<TokenBudget> budget() {
        return Optional.ofNullable(budget);
    }

    /** Estimates a request's cost (also for exchanges the budget does not pace: a stream without usage needs its input). */
    public Cost estimate(byte[] body, long declaredBytes) {
        return estimator.estimate(body, declaredBytes);
    }

    /** Every upstream response's headers, errors and streams included, as they arrive. */
    public void onUpstreamHeaders(HeaderLookup headers, int status, Instant now) {
        RateLimitHeaders.Observation o = RateLimitHeaders.read(headers, status, now);
        rateLimits.observe(o);
        if (budget != null) {
            budget.observe(o, now);
        }
    }

    /**
     * Counts a finished exchange and settles its budget permit (null when it held none).
     *
     * @param status the committed status
     */
    public void onExchangeEnd(TokenUsage usage, int status, BudgetPermit permit) {
        counters.record(usage, status);
        if (permit != null) {
            permit.settle(usage);
        }
    }

    public TokenCounters counters() {
        return counters;
    }

    public UpstreamRateLimits rateLimits() {
        return rateLimits;
    }
}
