package shaper.limit;

import java.time.Duration;
import java.util.concurrent.locks.Condition;

/**
 * The {@link Ticket} of a {@link FifoLimiter}. All state is guarded by the limiter's lock, so a
 * grant, a cancel, a timeout and an interrupt are totally ordered: whichever takes the lock first
 * decides, and a cancel that loses to a grant gives the slot back unused.
 *
 * <p>A waiting thread parks on its own {@link Condition} of the limiter's lock (a virtual thread
 * unmounts); timeouts are timer tasks of the limiter's {@link TimeSource} that wake it, so a
 * manual time source drives timeouts in tests.
 */
final class Waiter extends Queued implements Ticket {
    enum State { QUEUED, GRANTED, CLAIMED, CANCELLED, TIMED_OUT, REFUSED }

    private final FifoLimiter limiter;
    private final LimiterLock lock;
    private final Condition wake;
    final long enqueuedAt;
    private State state;
    private Grant grant;
    private QueueFullException refusal;

    /** A ticket that is queued ({@code grantedNow == null}) or already holds a free slot. */
    Waiter(FifoLimiter limiter, QueueClass cls, QueueClient client, long enqueuedAt, Grant grantedNow) {
        super(cls, client);
        this.limiter = limiter;
        this.lock = limiter.lock;
        this.wake = lock.newCondition();
        this.enqueuedAt = enqueuedAt;
        this.grant = grantedNow;
        this.state = grantedNow == null ? State.QUEUED : State.GRANTED;
    }

    @Override
    public Permit await(Duration timeout) throws QueueTimeoutException, QueueCancelledException, QueueFullException,
            InterruptedException {
        Durations.requireNonNegative(timeout, "timeout");
        lock.lock();
        try {
            boolean rang = waitWhileQueued(timeout.isZero() ? null : timeout);
            if (rang && state == State.QUEUED) {
                limiter.leaveQueue(this);
                state = State.TIMED_OUT;
            }
            if (state == State.TIMED_OUT) {
                throw new QueueTimeoutException(limiter.name(), timeout);
            }
            return claim();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Permit poll(Duration wait) throws QueueCancelledException, QueueFullException, InterruptedException {
        Durations.requireNonNegative(wait, "wait");
        lock.lock();
        try {
            if (!wait.isZero()) {
                waitWhileQueued(wait);
            }
            if (state == State.QUEUED) {
                return null;
            }
            if (state == State.TIMED_OUT) {
                throw new IllegalStateException("ticket of limiter \"" + limiter.name() + "\" already timed out");
            }
            return claim();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean cancel() {
        return lock.get(this::cancelLocked);
    }

    @Override
    public boolean queued() {
        return lock.get(() -> state == State.QUEUED);
    }

    /** A heavier arrival took this queued waiter's place in a full queue (already unlinked). Caller holds the lock. */
    void refused(QueueFullException why) {
        refusal = why;
        state = State.REFUSED;
        wake.signalAll();
    }

    /** Hands a slot to this queued waiter (already unlinked by the limiter). Caller holds the lock. */
    void granted(Grant g) {
        grant = g;
        state = State.GRANTED;
        wake.signalAll();
    }

    /**
     * Parks while queued, at most {@code limit} ({@code null}: no limit). Returns {@code true} if the
     * limit passed. Interruption cancels the ticket before propagating. Caller holds the lock.
     */
    private boolean waitWhileQueued(Duration limit) throws InterruptedException {
        if (state != State.QUEUED) {
            return false;
        }
        Alarm alarm = limit == null ? null : new Alarm();
        TimeSource.Cancellable timer = alarm == null ? null : limiter.time.schedule(limit, alarm);
        try {
            while (state == State.QUEUED && (alarm == null || !alarm.rang)) {
                wake.await();
            }
            return alarm != null && alarm.rang;
        } catch (InterruptedException e) {
            cancelLocked();
            throw e;
        } finally {
            if (timer != null) {
                timer.cancel();
            }
        }
    }

    private Permit claim() throws QueueCancelledException, QueueFullException {
        switch (state) {
            case REFUSED -> throw refusal;
            case GRANTED -> {
                Grant g = grant;
                grant = null;
                state = State.CLAIMED;
                return g;
            }
            case CANCELLED -> throw new QueueCancelledException(limiter.name());
            case CLAIMED -> throw new IllegalStateException("permit of limiter \"" + limiter.name() + "\" already claimed");
            default -> throw new IllegalStateException("ticket of limiter \"" + limiter.name() + "\" is " + state);
        }
    }

    private boolean cancelLocked() {
        switch (state) {
            case QUEUED -> limiter.leaveQueue(this);
            case GRANTED -> {
                Grant unused = grant;
                grant = null;
                limiter.returnUnused(unused);
            }
            default -> {
                return false;
            }
        }
        state = State.CANCELLED;
        wake.signalAll();
        return true;
    }

    /** Timer task that wakes the waiting thread when its wait limit passes. */
    private final class Alarm implements Runnable {
        boolean rang; // guarded by lock

        @Override
        public void run() {
            lock.run(() -> {
                rang = true;
                wake.signalAll();
            });
        }
    }
}
