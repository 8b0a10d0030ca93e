/**
 * Budget-paced admission: per provider, token buckets for requests, tokens, input tokens and
 * output tokens per minute ({@code -rpm}, {@code -tpm}, {@code -itpm}, {@code -otpm}), refilled
 * continuously and full at start, optionally restated by the upstream's own rate-limit headers
 * ({@code -budget-from-headers}).
 *
 * <p>A request's {@link shaper.budget.Cost} is estimated at admission by
 * {@link shaper.budget.CostEstimator}, taken from every bucket when the request is the head of
 * the {@link shaper.budget.TokenBudget}'s queue (a FIFO per priority class, the head picked by the
 * weighted fair order: {@link shaper.budget.BudgetQueue}) and fits, and reconciled from the actual usage when the
 * exchange ends ({@link shaper.budget.BudgetPermit#settle}). Waiting is a {@link shaper.limit.Ticket},
 * so the admission loop applies the queue timeout, depth, comments, departure and stop to token
 * waiters exactly as to slot waiters. The buckets live in a {@link shaper.budget.BucketStore}: this
 * process's {@link shaper.budget.BudgetBuckets}, or Redis in cluster mode. Thread-safe: each budget
 * has one lock; time is injected.
 */
package shaper.budget;
