package shaper.budget;

import java.time.Duration;

import shaper.limit.Limiter;
import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterUnavailableException;
import shaper.limit.LimiterView;
import shaper.limit.Permit;
import shaper.limit.QueueClass;
import shaper.limit.QueueClient;
import shaper.limit.QueuePlace;
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
    /**
     * This request's ticket, once it asked (queued, or granted at once): the one record of its wait
     * and, once claimed, of its permit. Read by other threads for the journal.
     */
    private volatile BudgetTicket ticket;

    BudgetLimiter(TokenBudget budget, Cost cost) {
        this.budget = budget;
        this.cost = cost;
    }

    @Override
    public String name() {
        return budget.name() + " budget";
    }


    /** Queues in the request's class and client's line: weighted fair across both, FIFO within one (see {@link BudgetQueue}). */
    @Override
    public Ticket enqueue(int maxDepth, QueueClass cls, QueueClient client) throws QueueFullException, LimiterUnavailableException {
        BudgetTicket t = budget.join(cost, maxDepth, new QueuePlace(cls, client), true);
        ticket = t;
        return t;
    }

    /** {@code waiting for tokens (input)} (or requests, output, tokens, retry-after) while queued; null otherwise. */
    String waitingFor() {
        BudgetTicket t = ticket;
        String what = t == null ? null : t.waitingFor();
        return what == null ? null : "waiting for tokens (" + (what.equals(TokenBudget.HOLD) ? "retry-after" : what) + ")";
    }

    /** The tokens now if nobody waits and they fit, else null; never queues. */
    @Override
    public Permit tryAcquire() throws LimiterUnavailableException {
        BudgetTicket t;
        try {
            t = budget.join(cost, 0, QueuePlace.DEFAULT, false);
        } catch (QueueFullException unbounded) {
            throw new IllegalStateException("an unbounded queue was full", unbounded);
        }
        if (t == null) {
            return null;
        }
        ticket = t;
        try {
            return t.await(Duration.ZERO);
        } catch (InterruptedException | shaper.limit.AdmissionException e) {
            throw new IllegalStateException("a ticket granted at once could not be claimed", e);
        }
    }

    /** The permit this request claimed, or null when it was never admitted. */
    BudgetPermit permit() {
        BudgetTicket t = ticket;
        return t == null ? null : t.permit();
    }

    Cost cost() {
        return cost;
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

    @Override
    public LimiterView view() {
        return new LimiterView(snapshot(), 0, budget.queuedByClass());
    }
}
