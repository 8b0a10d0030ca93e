package shaper.limit;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A concurrency limiter with a strict FIFO queue, release cooldown, timed holds and adaptive
 * headroom: the one primitive behind route, group, default-pool, global and large-request limits.
 * See the package documentation for the admission diagram and guarantees.
 *
 * <p>Every slot is always in exactly one place: {@code idle + inUse + cooling + withheld == limit + retiring},
 * where {@code retiring} counts slots a lowered limit ({@link #reconfigure}) takes back as they return.
 * All of it, and the queue, is guarded by one lock held only for O(1) bookkeeping; waiting happens
 * on per-waiter conditions and delayed work on the {@link TimeSource}'s timer.
 */
public final class FifoLimiter implements Limiter {
    /** The release cooldown of the original tool ({@code -release-cooldown}). */
    public static final Duration DEFAULT_RELEASE_COOLDOWN = Duration.ofMillis(200);
    /** The headroom window of the original tool ({@code -adaptive-headroom-window}). */
    public static final Duration DEFAULT_HEADROOM_WINDOW = Duration.ofSeconds(30);

    private final String name;
    private volatile int limit;
    private volatile Duration releaseCooldown;
    private volatile Duration headroomWindow;
    final TimeSource time;
    final ReentrantLock lock = new ReentrantLock();

    // Guarded by lock.
    private final WaitQueue queue = new WaitQueue();
    private int idle;
    private int inUse;
    private int cooling;
    private int withheld;
    private int retiring;
    private boolean absorbNextReturn;
    private long headroomEpoch;
    private TimeSource.Cancellable headroomTimer;

    /**
     * @param name shown in snapshots and error messages; not null
     * @param limit concurrency, at least 1
     * @param releaseCooldown delay before a released slot can be granted again; {@link Duration#ZERO} = at once
     * @param headroomWindow how long {@link #onRateLimited()} withholds a slot; {@link Duration#ZERO} turns headroom off
     * @param time clock and timer; not null
     */
    public FifoLimiter(String name, int limit, Duration releaseCooldown, Duration headroomWindow, TimeSource time) {
        this.name = Objects.requireNonNull(name, "name");
        if (limit < 1) {
            throw new IllegalArgumentException("limiter \"" + name + "\": concurrency must be >= 1, got " + limit);
        }
        this.limit = limit;
        this.releaseCooldown = Durations.requireNonNegative(releaseCooldown, "releaseCooldown");
        this.headroomWindow = Durations.requireNonNegative(headroomWindow, "headroomWindow");
        this.time = Objects.requireNonNull(time, "time");
        this.idle = limit;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Changes the limit, cooldown and headroom window in place (a configuration reload), keeping every
     * waiter and every granted slot. A lower limit takes idle slots at once and then each slot that
     * comes back until the limit holds, so nobody new is admitted until those in use drop below it;
     * a higher one hands the new slots to the waiters at once, in arrival order. The cooldown and
     * window apply to slots released from now on.
     *
     * @param limit concurrency, at least 1
     */
    public void reconfigure(int limit, Duration releaseCooldown, Duration headroomWindow) {
        if (limit < 1) {
            throw new IllegalArgumentException("limiter \"" + name + "\": concurrency must be >= 1, got " + limit);
        }
        Durations.requireNonNegative(releaseCooldown, "releaseCooldown");
        Durations.requireNonNegative(headroomWindow, "headroomWindow");
        lock.lock();
        try {
            this.releaseCooldown = releaseCooldown;
            this.headroomWindow = headroomWindow;
            int delta = limit - this.limit;
            this.limit = limit;
            if (delta > 0) {
                int kept = Math.min(retiring, delta);
                retiring -= kept;
                for (int i = kept; i < delta; i++) {
                    slotReturned();
                }
            } else if (delta < 0) {
                int fromIdle = Math.min(idle, -delta);
                idle -= fromIdle;
                retiring += -delta - fromIdle;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The configured concurrency. */
    public int limit() {
        return limit;
    }

    @Override
    public Ticket enqueue(int maxDepth) throws QueueFullException {
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, got " + maxDepth);
        }
        lock.lock();
        try {
            Grant free = takeIdle();
            if (free != null) {
                return new Waiter(this, time.nanoTime(), free);
            }
            if (maxDepth > 0 && queue.size() >= maxDepth) {
                throw new QueueFullException(name, queue.size(), maxDepth);
            }
            Waiter w = new Waiter(this, time.nanoTime(), null);
            queue.addLast(w);
            return w;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Permit tryAcquire() {
        lock.lock();
        try {
            return takeIdle();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Withholds one slot for the headroom window, restarting the window if it already runs: an
     * idle slot if there is one, else the next slot that comes back. Never lowers the effective
     * limit below 1; no-op when the window is zero.
     */
    @Override
    public void onRateLimited() {
        if (headroomWindow.isZero() || limit == 1) {
            return;
        }
        lock.lock();
        try {
            if (withheld == 0 && !absorbNextReturn) {
                if (idle > 0) {
                    idle--;
                    withheld = 1;
                } else {
                    absorbNextReturn = true;
                }
            }
            if (headroomTimer != null) {
                headroomTimer.cancel();
            }
            long epoch = ++headroomEpoch;
            headroomTimer = time.schedule(headroomWindow, () -> endHeadroom(epoch));
        } finally {
            lock.unlock();
        }
    }

    /** The current counts; O(1), never waits for waiters. */
    @Override
    public LimiterSnapshot snapshot() {
        lock.lock();
        try {
            Waiter oldest = queue.first();
            Duration age = oldest == null ? Duration.ZERO : Duration.ofNanos(Math.max(0, time.nanoTime() - oldest.enqueuedAt));
            int effective = Math.max(1, limit - withheld - (absorbNextReturn ? 1 : 0));
            return new LimiterSnapshot(name, limit, effective, inUse, cooling, idle, queue.size(), age);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "FifoLimiter[" + name + ", limit " + limit + "]";
    }

    // ---- transitions; callers hold the lock unless the method takes it ----

    private Grant takeIdle() {
        if (idle == 0) {
            return null;
        }
        idle--;
        inUse++;
        return new Grant(this);
    }

    /** A queued waiter timed out, was cancelled or interrupted. */
    void leaveQueue(Waiter w) {
        queue.remove(w);
    }

    /** A granted slot was cancelled before it was claimed: it was never used, so no cooldown. */
    void returnUnused() {
        inUse--;
        slotReturned();
    }

    void release(Grant g, Duration hold) {
        lock.lock();
        try {
            if (!g.markReleased()) {
                return;
            }
            if (hold.isZero()) {
                endHold();
            } else {
                time.schedule(hold, this::endHoldLocking);
            }
        } finally {
            lock.unlock();
        }
    }

    private void endHoldLocking() {
        lock.lock();
        try {
            endHold();
        } finally {
            lock.unlock();
        }
    }

    private void endHold() {
        inUse--;
        if (releaseCooldown.isZero()) {
            slotReturned();
        } else {
            cooling++;
            time.schedule(releaseCooldown, this::endCooldown);
        }
    }

    private void endCooldown() {
        lock.lock();
        try {
            cooling--;
            slotReturned();
        } finally {
            lock.unlock();
        }
    }

    private void endHeadroom(long epoch) {
        lock.lock();
        try {
            if (epoch != headroomEpoch) {
                return;
            }
            headroomTimer = null;
            absorbNextReturn = false;
            if (withheld > 0) {
                withheld--;
                slotReturned();
            }
        } finally {
            lock.unlock();
        }
    }

    /** A slot re-enters the pool: a lowered limit or headroom absorbs it, or the longest waiter gets it, or it goes idle. */
    private void slotReturned() {
        if (retiring > 0) {
            retiring--;
            return;
        }
        if (absorbNextReturn) {
            absorbNextReturn = false;
            withheld++;
            return;
        }
        Waiter w = queue.pollFirst();
        if (w == null) {
            idle++;
            return;
        }
        inUse++;
        w.granted(new Grant(this));
    }
}
