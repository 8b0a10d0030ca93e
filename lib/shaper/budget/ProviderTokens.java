package shaper.budget;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

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
        this(provider, config, time, null);
    }

    /** @param store where the buckets live (cluster mode: Redis); null keeps them in this process */
    public ProviderTokens(String provider, BudgetConfig config, TimeSource time, BucketStore store) {
        this.budget = !config.enabled() ? null
                : new TokenBudget(provider, config, time, store != null ? store : new BudgetBuckets(config, time));
        this.estimator = budget != null ? budget.estimator() : new CostEstimator();
    }

    /** Token state without a budget: usage and rate-limit headers only. */
    public static ProviderTokens unpaced() {
        return new ProviderTokens("", BudgetConfig.OFF, null);
    }

    /**
     * Ends an exchange's accounting: reads the usage of the relayed answer (estimated when it
     * reports none), counts it, and settles the budget it spent.
     *
     * @param scanner   the relayed answer's scanner, null when no answer was relayed
     * @param status    the committed status
     * @param body      the request body as the model reads it (decoded) when it was read, else null: the
     *                  model and the input estimate come from it, or from the budget's cost when it was paced.
     *                  Asked at most once, and only when the cost does not already say it (a paced request's
     *                  coded body was decoded for its estimate; decoding it again here would be the same work twice)
     * @param spend     what the request spent of the budget, null when it was not paced
     * @return the usage, for the exchange's record
     */
    public TokenUsage finish(shaper.usage.UsageScanner scanner, int status, Supplier<byte[]> body, TokenBudget.Spend spend) {
        boolean costNamesModel = spend != null && !spend.cost().model().isEmpty();
        byte[] read = costNamesModel ? null : body.get();
        String model = costNamesModel ? spend.cost().model() : shaper.usage.UsageScanner.requestModel(read);
        TokenUsage usage = scanner == null ? TokenUsage.NONE.withModel(model)
                : scanner.finish(status, model, () -> spend != null ? spend.cost().input() : estimate(read, -1).input());
        counters.record(usage, status);
        if (spend != null) {
            spend.settle(usage);
        }
        return usage;
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
        if (status != 429 && status != 529 && !headers.mayHaveNameStartingWith("anthropic-ratelimit-")
                && !headers.mayHaveNameStartingWith("x-ratelimit-")) {
            return; // nothing RateLimitHeaders reads is there: its ~20 lookups would state nothing
        }
        RateLimitHeaders.Observation o = RateLimitHeaders.read(headers, status, now);
        rateLimits.observe(o);
        if (budget != null) {
            budget.observe(o, now);
        }
    }

    public TokenCounters counters() {
        return counters;
    }

    public UpstreamRateLimits rateLimits() {
        return rateLimits;
    }
}
