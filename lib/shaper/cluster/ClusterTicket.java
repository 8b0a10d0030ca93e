package shaper.cluster;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import shaper.limit.LimiterUnavailableException;
import shaper.limit.Permit;
import shaper.limit.QueuePlace;
import shaper.limit.QueueCancelledException;
import shaper.limit.QueueFullException;
import shaper.limit.QueueTimeoutException;
import shaper.limit.Ticket;

/**
 * A place in a {@link ClusterLimiter}'s cluster-wide queue, or a ticket of its in-process fallback.
 *
 * <pre>
 *   QUEUED (in Redis) ──grant pushed──▶ GRANTED ──await──▶ CLAIMED
 *      │ cancel / timeout / interrupt ─▶ CANCELLED / TIMED_OUT, then LEAVE in Redis
 *      │ a heavier arrival at a full queue ─▶ REFUSED (429; Redis already removed it)
 *      │ Redis lost, fallback local ───▶ LOCAL: a ticket of the fallback limiter, in arrival order
 *      └ Redis lost, fallback closed ──▶ FAILED (503)
 * </pre>
 * The local state changes under the ticket's lock; the Redis side of a cancel runs after it, and
 * the LEAVE script decides atomically: either the ticket left the queue, or it had been granted and
 * the slot goes back unused. A grant that reaches a ticket no longer QUEUED goes back unused too.
 */
final class ClusterTicket implements Ticket {
    enum State { QUEUED, LOCAL, GRANTED, CLAIMED, CANCELLED, TIMED_OUT, REFUSED, FAILED }

    private final ClusterLimiter limiter;
    private final String id;
    final long arrival;
    private final QueuePlace place;
    /** The depth bound it queued under, for the answer when a heavier arrival displaces it. */
    private final int depth;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    // Guarded by lock.
    private State state;
    private Permit grant;
    private Ticket local;

    /** A ticket queued in Redis under {@code id}, at {@code place}, under the depth bound {@code depth}. */
    ClusterTicket(ClusterLimiter limiter, String id, long arrival, QueuePlace place, int depth) {
        this.limiter = limiter;
        this.id = id;
        this.arrival = arrival;
        this.place = Objects.requireNonNull(place, "place");
        this.depth = depth;
        this.state = State.QUEUED;
    }

    /** A ticket of the fallback limiter from the start. */
    static ClusterTicket ofLocal(ClusterLimiter limiter, Ticket local, long arrival, QueuePlace place) {
        ClusterTicket t = new ClusterTicket(limiter, "local", arrival, place, 0);
        t.state = State.LOCAL;
        t.local = Objects.requireNonNull(local);
        return t;
    }

    /** A ticket whose slot was free at once. */
    static ClusterTicket granted(ClusterLimiter limiter, String id, Permit permit) {
        ClusterTicket t = new ClusterTicket(limiter, id, 0, QueuePlace.DEFAULT, 0);
        t.state = State.GRANTED;
        t.grant = permit;
        return t;
    }

    String id() {
        return id;
    }

    QueuePlace place() {
        return place;
    }

    @Override
    public Permit await(Duration timeout) throws QueueTimeoutException, QueueCancelledException, QueueFullException,
            LimiterUnavailableException, InterruptedException {
        long deadline = timeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        Permit p = waitFor(deadline, true, timeout);
        if (p == null) {
            throw new IllegalStateException("unreachable: await returned no permit");
        }
        return p;
    }

    @Override
    public Permit poll(Duration wait) throws QueueCancelledException, QueueFullException, LimiterUnavailableException,
            InterruptedException {
        try {
            return waitFor(System.nanoTime() + wait.toNanos(), false, wait);
        } catch (QueueTimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until {@code deadline}; at the deadline times out ({@code timeOut}) or returns null. */
    private Permit waitFor(long deadline, boolean timeOut, Duration asked) throws QueueTimeoutException,
            QueueCancelledException, QueueFullException, LimiterUnavailableException, InterruptedException {
        Ticket delegate;
        boolean timedOut = false;
        lock.lock();
        try {
            while (state == State.QUEUED) {
                long left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    if (!timeOut) {
                        return null;
                    }
                    state = State.TIMED_OUT;
                    break;
                }
                try {
                    if (left == Long.MAX_VALUE) {
                        wake.await();
                    } else {
                        wake.awaitNanos(left);
                    }
                } catch (InterruptedException e) {
                    cancelLocked();
                    throw e;
                }
            }
            switch (state) {
                case GRANTED -> {
                    Permit g = grant;
                    grant = null;
                    state = State.CLAIMED;
                    return g;
                }
                case TIMED_OUT -> timedOut = true; // leaves the Redis queue below, outside the lock
                case CANCELLED -> throw new QueueCancelledException(limiter.name());
                case REFUSED -> throw new QueueFullException(limiter.name(), depth, depth);
                case FAILED -> throw new LimiterUnavailableException(limiter.name(), LocalFallback.UNAVAILABLE);
                case CLAIMED -> throw new IllegalStateException("permit of limiter \"" + limiter.name() + "\" already claimed");
                case LOCAL, QUEUED -> {
                }
            }
            delegate = local;
        } finally {
            lock.unlock();
        }
        if (timedOut) {
            limiter.leave(this);
            throw new QueueTimeoutException(limiter.name(), asked);
        }
        long left = deadline == Long.MAX_VALUE ? 0 : Math.max(1, deadline - System.nanoTime());
        Permit p = timeOut ? delegate.await(Duration.ofNanos(left)) : delegate.poll(Duration.ofNanos(left));
        return p == null ? null : limiter.adoptLocal(p);
    }

    @Override
    public boolean cancel() {
        Ticket delegate;
        lock.lock();
        try {
            if (state == State.LOCAL) {
                delegate = local;
            } else {
                return cancelLocked();
            }
        } finally {
            lock.unlock();
        }
        return delegate.cancel();
    }

    private boolean cancelLocked() {
        switch (state) {
            case QUEUED -> {
                state = State.CANCELLED;
                wake.signalAll();
                Thread.ofVirtual().start(() -> limiter.leave(this));
                return true;
            }
            case GRANTED -> {
                state = State.CANCELLED;
                Permit g = grant;
                grant = null;
                limiter.returnUnused(g);
                return true;
            }
            case LOCAL -> {
                return local.cancel();
            }
            default -> {
                return false;
            }
        }
    }

    @Override
    public boolean queued() {
        lock.lock();
        try {
            return state == State.QUEUED || (state == State.LOCAL && local.queued());
        } finally {
            lock.unlock();
        }
    }

    /** A heavier arrival took this ticket's place in a full queue (Redis removed it). {@code false}: it no longer waited. */
    boolean refused() {
        lock.lock();
        try {
            if (state != State.QUEUED) {
                return false;
            }
            state = State.REFUSED;
            wake.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Redis granted this ticket. {@code false}: it no longer waits, the caller gives the slot back unused. */
    boolean granted(Permit permit) {
        lock.lock();
        try {
            if (state != State.QUEUED) {
                return false;
            }
            state = State.GRANTED;
            grant = permit;
            wake.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Redis was lost while queued: wait on the fallback limiter instead, or fail.
     *
     * @param fallback enqueues on the fallback limiter; returns {@code null} when failing closed
     */
    void redisLost(java.util.function.Supplier<Ticket> fallback) {
        lock.lock();
        try {
            if (state != State.QUEUED) {
                return;
            }
            Ticket t = fallback.get();
            if (t == null) {
                state = State.FAILED;
            } else {
                local = t;
                state = State.LOCAL;
            }
            wake.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the ticket was given up (cancelled or timed out), so its place in Redis must go. */
    boolean abandoned() {
        lock.lock();
        try {
            return state == State.CANCELLED || state == State.TIMED_OUT;
        } finally {
            lock.unlock();
        }
    }
}
