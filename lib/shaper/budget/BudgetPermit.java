package shaper.budget;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import shaper.limit.Permit;
import shaper.usage.TokenUsage;

/**
 * The tokens one admitted request took from its provider's budget. Tokens are not slots: releasing
 * gives nothing back by itself; {@link #settle} reconciles the estimate with the actual usage once.
 * A permit released without being settled is settled as "nothing used" (every estimated token goes
 * back; the request stays counted). Thread-safe; settling is idempotent.
 */
public final class BudgetPermit implements Permit {
    private final TokenBudget budget;
    private final Cost cost;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile boolean released;

    BudgetPermit(TokenBudget budget, Cost cost) {
        this.budget = budget;
        this.cost = cost;
    }

    public Cost cost() {
        return cost;
    }

    /** Reconciles with what the exchange actually used; later calls do nothing. */
    public void settle(TokenUsage actual) {
        if (settled.compareAndSet(false, true)) {
            budget.settle(cost, actual);
        }
    }

    @Override
    public void release() {
        released = true;
        settle(TokenUsage.NONE);
    }

    @Override
    public void releaseAfter(Duration hold) {
        release();
    }

    @Override
    public boolean released() {
        return released;
    }
}
