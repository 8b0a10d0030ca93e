package shaper.limit;

import java.time.Duration;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * A concurrency limiter with a weighted fair queue (classes by weight, clients by weight inside a
 * class, FIFO per client), per-client caps, release cooldown, timed holds, adaptive headroom and an
 * optional adaptive limit: the one primitive behind route, group, default-pool, global and
 * large-request limits (see the package documentation). A {@link SlotLedger}, the queue and the
 * adaptive limit are guarded by one {@link LimiterLock}; waiters park on their own conditions.
 */
public final class FifoLimiter implements Limiter {
    /** The default {@code -release-cooldown}: how long a released slot cools before the next waiter gets it. */
    public static final Duration DEFAULT_RELEASE_COOLDOWN = Duration.ofMillis(200);
    /** The default {@code -adaptive-headroom-window}: how long {@code -adaptive-headroom} withholds a slot after an upstream 429. */
    public static final Duration DEFAULT_HEADROOM_WINDOW = Duration.ofSeconds(30);

    private final String name;
    private volatile int limit;
    private volatile Duration releaseCooldown;
    private volatile Duration headroomWindow;
    private final AdaptiveConcurrency adaptiveSettings;
    final TimeSource time;
    final LimiterLock lock = new LimiterLock();

    // Guarded by lock.
    private final FairQueue<Waiter> queue = new FairQueue<>();
    private final ClientHolds holds = new ClientHolds();
    private final AdaptiveLimit adaptive;
    private final SlotLedger slots;
    private TimeSource.Cancellable headroomTimer;

    /** A limiter with a fixed limit. */
    public FifoLimiter(String name, int limit, Duration releaseCooldown, Duration headroomWindow, TimeSource time) {
        this(name, limit, releaseCooldown, headroomWindow, time, null);
    }

    /**
     * @param name shown in snapshots and error messages; not null
     * @param limit concurrency, at least 1; the ceiling when {@code adaptive} is given
     * @param releaseCooldown delay before a released slot can be granted again; {@link Duration#ZERO} = at once
     * @param headroomWindow how long {@link #onRateLimited()} withholds a slot; {@link Duration#ZERO} turns headroom off
     * @param time clock and timer; not null
     * @param adaptive {@code null} for a fixed limit, else the limit learns from {@link Permit#report(LoadSample)}
     */
    public FifoLimiter(String name, int limit, Duration releaseCooldown, Duration headroomWindow, TimeSource time,
            AdaptiveConcurrency adaptive) {
        this.name = Objects.requireNonNull(name, "name");
        this.limit = requireLimit(limit);
        this.releaseCooldown = Durations.requireNonNegative(releaseCooldown, "releaseCooldown");
        this.headroomWindow = Durations.requireNonNegative(headroomWindow, "headroomWindow");
        this.time = Objects.requireNonNull(time, "time");
        this.adaptiveSettings = adaptive;
        this.adaptive = adaptive == null ? null : new AdaptiveLimit(adaptive.min(), limit, time.nanoTime());
        this.slots = new SlotLedger(limit);
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Changes the limit, cooldown and headroom window in place (a configuration reload), keeping every
     * waiter and every granted slot. A lower limit takes idle slots at once and then each slot that
     * comes back until the limit holds, so nobody new is admitted until those in use drop below it;
     * a higher one hands the new slots to the waiters at once, in class order. With an adaptive limit
     * the new value is its ceiling: the learnt limit stays below it (or follows it up from the old
     * ceiling, where nothing had lowered it). The cooldown and window apply to slots released from now on.
     *
     * @param limit concurrency, at least 1
     */
    public void reconfigure(int limit, Duration releaseCooldown, Duration headroomWindow) {
        requireLimit(limit);
        Durations.requireNonNegative(releaseCooldown, "releaseCooldown");
        Durations.requireNonNegative(headroomWindow, "headroomWindow");
        lock.run(() -> {
            this.releaseCooldown = releaseCooldown;
            this.headroomWindow = headroomWindow;
            this.limit = limit;
            slots.resize(limit);
            if (adaptive != null) {
                adaptive.ceiling(limit);
            }
            applyLimit(adaptive == null ? limit : adaptive.limit());
        });
    }

    private int requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limiter \"" + name + "\": concurrency must be >= 1, got " + limit);
        }
        return limit;
    }

    /** The configured concurrency (the ceiling of an adaptive limit). */
    public int limit() {
        return limit;
    }

    /**
     * {@inheritDoc} A client at its {@code concurrency} cap queues even while a slot is idle. Who a
     * bound refuses: {@link FairQueue#displacedBy}; a displaced waiter gets the arrival's refusal.
     */
    @Override
    public Ticket enqueue(int maxDepth, QueueClass cls, QueueClient client) throws QueueFullException {
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, got " + maxDepth);
        }
        Objects.requireNonNull(cls, "cls");
        Objects.requireNonNull(client, "client");
        lock.lock();
        try {
            Grant free = holds.mayTake(client) ? takeIdle(client) : null;
            if (free != null) {
                return new Waiter(this, cls, client, time.nanoTime(), free);
            }
            FairQueue.Refusal refusal = (queued, bound) -> new QueueFullException(name, queued, bound);
            Waiter victim = queue.displacedBy(maxDepth, cls, client, refusal);
            if (victim != null) {
                queue.remove(victim);
                victim.refused(refusal.full(maxDepth, maxDepth));
            }
            Waiter w = new Waiter(this, cls, client, time.nanoTime(), null);
            queue.add(w);
            return w;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Permit tryAcquire() {
        return lock.get(() -> takeIdle(QueueClient.ANONYMOUS));
    }

    /**
     * Withholds one slot for the headroom window, restarting the window if it already runs: an
     * idle slot if there is one, else the next slot that comes back. Never lowers the effective
     * limit below 1; no-op when the window is zero.
     */
    @Override
    public void onRateLimited() {
        if (headroomWindow.isZero()) {
            return;
        }
        lock.run(() -> {
            if (slots.current() <= 1) {
                return;
            }
            long window = slots.withholdOne();
            if (headroomTimer != null) {
                headroomTimer.cancel();
            }
            headroomTimer = later(headroomWindow, () -> {
                if (slots.endHeadroom(window)) {
                    slotReturned();
                }
            });
        });
    }

    /** The current counts; O(classes), never waits for waiters. */
    @Override
    public LimiterSnapshot snapshot() {
        return lock.get(() -> {
            Waiter oldest = queue.oldest();
            Duration age = oldest == null ? Duration.ZERO : Duration.ofNanos(Math.max(0, time.nanoTime() - oldest.enqueuedAt));
            return new LimiterSnapshot(name, limit, slots.effective(), slots.inUse, slots.cooling, slots.idle,
                    queue.size(), age);
        });
    }

    @Override
    public LimiterView view() {
        return lock.get(() -> new LimiterView(snapshot(), slots.held, queue.queuedByClass()));
    }

    @Override
    public String toString() {
        return "FifoLimiter[" + name + ", limit " + limit + "]";
    }

    // ---- transitions; callers hold the lock unless the method takes it ----

    private Grant takeIdle(QueueClient client) {
        return slots.takeIdle() ? newGrant(client) : null;
    }

    private Grant newGrant(QueueClient client) {
        holds.took(client);
        return new Grant(this, adaptive == null ? 0 : adaptive.epoch(), client);
    }

    /** A queued waiter timed out, was cancelled or interrupted. */
    void leaveQueue(Waiter w) {
        queue.remove(w);
    }

    /** A granted slot was cancelled before it was claimed: it was never used, so no cooldown. */
    void returnUnused(Grant g) {
        holds.gave(g.client);
        slots.inUse--;
        slotReturned();
    }

    /** What the exchange holding {@code g} says about the upstream's load; moves an adaptive limit. */
    void report(Grant g, LoadSample sample) {
        if (adaptive == null) {
            return;
        }
        LimitChange change = lock.get(() -> {
            int before = adaptive.limit();
            String reason = adaptive.onSample(g.epoch, queue.size() > 0 || slots.idle == 0, sample, time.nanoTime());
            if (reason == null) {
                return null;
            }
            applyLimit(adaptive.limit());
            return new LimitChange(name, before, adaptive.limit(), reason);
        });
        if (change != null) {
            adaptiveSettings.onChange().accept(change);
        }
    }

    void release(Grant g, Duration hold) {
        lock.run(() -> {
            if (!g.markReleased()) {
                return;
            }
            holds.gave(g.client);
            grantIdle(); // the client may now take a slot that stayed idle while it was at its cap
            phase(hold, n -> slots.held += n, this::endHold);
        });
    }

    private void endHold() {
        slots.inUse--;
        phase(releaseCooldown, n -> slots.cooling += n, this::slotReturned);
    }

    /** One phase of a slot's way back (a hold, the cooldown): counted in it for {@code delay}, then on to {@code next}. */
    private void phase(Duration delay, IntConsumer count, Runnable next) {
        if (delay.isZero()) {
            next.run();
            return;
        }
        count.accept(1);
        later(delay, () -> {
            count.accept(-1);
            next.run();
        });
    }

    /** Runs {@code step} under the lock once {@code delay} has passed, on the time source's timer. */
    private TimeSource.Cancellable later(Duration delay, Runnable step) {
        return time.schedule(delay, () -> lock.run(step));
    }

    /** Moves the limit in force; headroom never takes the last slot, so at a limit of 1 its slot comes back. */
    private void applyLimit(int target) {
        for (int back = slots.retarget(target); back > 0; back--) {
            slotReturned();
        }
        if (target <= 1 && slots.dropHeadroom()) {
            slotReturned();
        }
    }

    /** A slot re-enters the pool: headroom or a lowered limit keeps it, or the next waiter gets it, or it goes idle. */
    private void slotReturned() {
        if (!slots.keepsReturn()) {
            slots.idle++;
            grantIdle();
        }
    }

    /**
     * Hands idle slots to the waiters whose turn it is among those under their client's cap: a slot
     * is idle only while no such waiter waits (a capped client's waiters may wait beside idle slots).
     */
    private void grantIdle() {
        for (Waiter w; slots.idle > 0 && (w = queue.poll(holds::mayTake)) != null; ) {
            slots.takeIdle();
            w.granted(newGrant(w.queueClient()));
        }
    }
}
