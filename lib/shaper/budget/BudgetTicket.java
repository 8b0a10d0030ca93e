package shaper.budget;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.Condition;

import shaper.limit.LimiterUnavailableException;
import shaper.limit.Permit;
import shaper.limit.QueueCancelledException;
import shaper.limit.QueuePlace;
import shaper.limit.QueueFullException;
import shaper.limit.Queued;
import shaper.limit.QueueTimeoutException;
import shaper.limit.Ticket;
import shaper.limit.TimeSource;

/**
 * A place in a {@link TokenBudget}'s queue, with the {@link Ticket} lifecycle of the slot limiters
 * ({@code queued → granted → claimed}, or cancelled / timed out), so the admission loop waits for
 * tokens exactly as it waits for a slot: the same timeout, ticks, departure and stop handling. All
 * state is guarded by the budget's lock, so a grant and a cancel are totally ordered; a cancel that
 * loses to a grant returns the tokens.
 */
final class BudgetTicket extends Queued implements Ticket {
    private enum State { QUEUED, GRANTED, CLAIMED, CANCELLED, TIMED_OUT, FAILED, REFUSED }

    private final TokenBudget budget;
    /** The budget's number for this ticket: what a shared store's head reservation names. */
    final long number;
    final Cost cost;
    private final Condition wake;
    private State state;
    /** What the ticket waits for: a kind's word or {@link TokenBudget#HOLD}; read by other threads for the journal. */
    private volatile String waitingFor;
    /** The permit once claimed, so the exchange can settle it. */
    private volatile BudgetPermit permit;
    /** Why the ticket failed (its store is away), once {@code FAILED}. */
    private String failure;
    /** The full queue's answer, once a heavier class's arrival took this waiter's place ({@code REFUSED}). */
    private QueueFullException refusal;

    /** A ticket whose cost was taken on arrival: it waits for nothing. */
    static BudgetTicket granted(TokenBudget budget, long number, Cost cost, QueuePlace place) {
        return new BudgetTicket(budget, number, cost, place, null);
    }

    /** A ticket that joins the queue, waiting for {@code waitingFor} (a kind's word or {@link TokenBudget#HOLD}). */
    static BudgetTicket queued(TokenBudget budget, long number, Cost cost, QueuePlace place, String waitingFor) {
        return new BudgetTicket(budget, number, cost, place, Objects.requireNonNull(waitingFor, "waitingFor"));
    }

    /** @param waitingFor what a queued ticket waits for; null only for a ticket granted on arrival */
    private BudgetTicket(TokenBudget budget, long number, Cost cost, QueuePlace place, String waitingFor) {
        super(place.cls(), place.client());
        this.budget = budget;
        this.number = number;
        this.cost = cost;
        this.wake = budget.lock.newCondition();
        this.state = waitingFor == null ? State.GRANTED : State.QUEUED;
        this.waitingFor = waitingFor;
    }

    /** What it waits for while queued, else null. */
    String waitingFor() {
        return waitingFor;
    }

    /** The claimed permit, or null before the claim (or when there was none). */
    BudgetPermit permit() {
        return permit;
    }

    void waitFor(String what) {
        waitingFor = what;
    }

    /** Called by the budget, lock held, after taking the cost and unlinking this ticket. */
    void granted() {
        state = State.GRANTED;
        wake.signalAll();
    }

    /** Called by the budget, lock held, after unlinking this ticket: its shared store is away and fails closed. */
    void failed(String reason) {
        state = State.FAILED;
        failure = reason;
        wake.signalAll();
    }

    /** Called by the budget, lock held, after unlinking this ticket: a heavier arrival took its place in a full queue. */
    void refused(QueueFullException why) {
        state = State.REFUSED;
        refusal = why;
        wake.signalAll();
    }

    @Override
    public Permit await(Duration timeout) throws QueueTimeoutException, QueueCancelledException, QueueFullException,
            LimiterUnavailableException, InterruptedException {
        budget.lock.lock();
        try {
            if (waitWhileQueued(timeout.isZero() ? null : timeout) && state == State.QUEUED) {
                budget.leave(this);
                state = State.TIMED_OUT;
                throw new QueueTimeoutException(budget.name(), timeout);
            }
            return claim();
        } finally {
            budget.lock.unlock();
        }
    }

    @Override
    public Permit poll(Duration wait) throws QueueCancelledException, QueueFullException, LimiterUnavailableException,
            InterruptedException {
        budget.lock.lock();
        try {
            if (!wait.isZero()) {
                waitWhileQueued(wait);
            }
            return state == State.QUEUED ? null : claim();
        } finally {
            budget.lock.unlock();
        }
    }

    @Override
    public boolean cancel() {
        budget.lock.lock();
        try {
            return cancelLocked();
        } finally {
            budget.lock.unlock();
        }
    }

    @Override
    public boolean queued() {
        budget.lock.lock();
        try {
            return state == State.QUEUED;
        } finally {
            budget.lock.unlock();
        }
    }

    private boolean cancelLocked() {
        switch (state) {
            case QUEUED -> budget.leave(this);
            case GRANTED -> budget.returnUnused(cost);
            default -> {
                return false;
            }
        }
        state = State.CANCELLED;
        wake.signalAll();
        return true;
    }

    private Permit claim() throws QueueCancelledException, QueueFullException, LimiterUnavailableException {
        return switch (state) {
            case GRANTED -> {
                state = State.CLAIMED;
                permit = new BudgetPermit(budget, cost);
                yield permit;
            }
            case CANCELLED -> throw new QueueCancelledException(budget.name());
            case FAILED -> throw new LimiterUnavailableException(budget.name() + " budget", failure);
            case REFUSED -> throw refusal;
            case TIMED_OUT -> throw new IllegalStateException("ticket of budget \"" + budget.name() + "\" already timed out");
            case CLAIMED -> throw new IllegalStateException("permit of budget \"" + budget.name() + "\" already claimed");
            case QUEUED -> throw new IllegalStateException("ticket of budget \"" + budget.name() + "\" is still queued");
        };
    }

    /** Parks while queued, at most {@code limit} (null: no limit); true if the limit passed. Lock held. */
    private boolean waitWhileQueued(Duration limit) throws InterruptedException {
        if (state != State.QUEUED) {
            return false;
        }
        boolean[] rang = {false};
        TimeSource.Cancellable alarm = limit == null ? null : budget.time.schedule(limit, () -> {
            budget.lock.lock();
            try {
                rang[0] = true;
                wake.signalAll();
            } finally {
                budget.lock.unlock();
            }
        });
        try {
            while (state == State.QUEUED && !rang[0]) {
                wake.await();
            }
            return rang[0];
        } catch (InterruptedException e) {
            cancelLocked();
            throw e;
        } finally {
            if (alarm != null) {
                alarm.cancel();
            }
        }
    }
}
