package shaper.budget;

import java.time.Duration;

import shaper.limit.Limiter;
import shaper.limit.LimiterSnapshot;
import shaper.limit.Permit;
import shaper.limit.QueueFullException;
import shaper.limit.Ticket;

/**
 * One request's view of its provider's {@link TokenBudget} as a {@link Limiter}, so the admission
 * chain's queue waits for its tokens with the code that waits for slots. A view is made per request
 * (it carries the request's cost) and is not listed among the provider's limiters; the budget's own
 * state is exported as {@code shaper_budget_level}.
 */
final class BudgetLimiter implements Limiter {
    private final TokenBudget budget;
    private final Cost cost;

    BudgetLimiter(TokenBudget budget, Cost cost) {
        this.budget = budget;
        this.cost = cost;
    }

    @Override
    public String name() {
        return budget.name() + " budget";
    }

    @Override
    public Ticket enqueue(int maxDepth) throws QueueFullException {
        return budget.enqueue(cost, maxDepth);
    }

    /** The tokens now if nobody waits and they fit, else null; never queues. */
    @Override
    public Permit tryAcquire() {
        return budget.tryTake(cost);
    }

    /** The budget learns of 429s from the upstream's headers ({@code -budget-from-headers}), not from here. */
    @Override
    public void onRateLimited() {
    }

    @Override
    public LimiterSnapshot snapshot() {
        int waiters = budget.queued();
        return new LimiterSnapshot(name(), 1, 1, 0, 0, waiters == 0 ? 1 : 0, waiters, Duration.ZERO);
    }
}
