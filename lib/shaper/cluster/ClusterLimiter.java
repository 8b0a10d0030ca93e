package shaper.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import shaper.limit.AdaptiveConcurrency;
import shaper.limit.Limiter;
import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterUnavailableException;
import shaper.limit.LimiterView;
import shaper.limit.LoadSample;
import shaper.limit.Permit;
import shaper.limit.QueueClass;
import shaper.limit.QueueClient;
import shaper.limit.QueuePlace;
import shaper.limit.QueueFullException;
import shaper.limit.Ticket;
import shaper.limit.TimeSource;

/**
 * A {@link Limiter} whose slots and queue live in Redis and are shared by every instance that uses
 * the same namespace and key: the cluster-wide lease semaphore of {@link LeaseScripts}, called
 * through {@link LeaseCalls}.
 *
 * <pre>
 *   enqueue ─ENQUEUE─▶ granted ───────────────────────────────▶ ClusterPermit (renewed every lease/3)
 *              │ queued: ticket id in Redis, local waiter parks        │ release / releaseAfter(hold)
 *              ▼                                                       ▼
 *   a release anywhere runs pump ─▶ PUBLISH to the owner ─▶ waiter wakes   RELEASE: hold = expiry, then cooldown
 *   missed push? the renewal (every lease/3) reports it; a slot freed by expiry: timer at the next expiry
 * </pre>
 * While its {@link RedisLink} is down, its {@link LocalFallback} admits (or refuses), counting the
 * permits Redis granted before the outage. When Redis is back, {@link LeaseRenewal} registers every
 * running permit in Redis again (even past the limit), so new grants wait until the cluster total
 * is back under the limit. Priority classes order the Redis queue ({@link ClassQueueLua}); an adaptive
 * limit is shared in Redis ({@link SharedLimitLua}, this instance's side {@link SharedAdaptive}). Thread-safe.
 */
final class ClusterLimiter implements Limiter, LinkListener {
    private final String name;
    private final int limit;
    private final Duration releaseCooldown;
    private final Duration headroomWindow;
    private final RedisLink link;
    private final LeaseCalls calls;
    private final LocalFallback fallback;
    private final LeaseRenewal renewal;
    private final LeaseTimers timers;
    private final GrantPump pump;
    private final ClusterCounts counts;
    private final Map<String, ClusterTicket> queued = new ConcurrentHashMap<>();
    private final Map<String, ClusterPermit> live = new ConcurrentHashMap<>();
    private final Object grantLock = new Object();
    private final AtomicLong arrivals = new AtomicLong();
    private final SharedAdaptive adaptive;

    /**
     * @param adaptive {@code null} for a fixed limit; else {@code limit} is the ceiling of a limit
     *                 learnt and shared through Redis ({@link SharedLimitLua})
     */
    ClusterLimiter(String namespace, String key, String name, int limit, Duration releaseCooldown, Duration headroomWindow,
                   Duration lease, RedisLink link, TimeSource time, AdaptiveConcurrency adaptive) {
        this.name = name;
        this.limit = limit;
        this.releaseCooldown = releaseCooldown;
        this.headroomWindow = headroomWindow;
        this.link = link;
        this.adaptive = SharedAdaptive.of(name, adaptive, time::nanoTime);
        this.calls = new LeaseCalls(link, namespace, key, limit, releaseCooldown, lease, !headroomWindow.isZero(),
                adaptive == null ? 0 : adaptive.min());
        this.fallback = new LocalFallback(name, link.fallback(), limit, releaseCooldown, headroomWindow, time, adaptive);
        this.renewal = new LeaseRenewal(this, calls);
        this.timers = new LeaseTimers(time, link::closed);
        this.pump = new GrantPump(calls, timers, () -> !queued.isEmpty());
        this.counts = new ClusterCounts(name, limit, link, calls, fallback, queued::values);
        link.register(calls.baseKey(), this);
        timers.every(lease.dividedBy(3), "shaper-cluster-renew", this::renew);
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * {@inheritDoc} Classes and clients are kept cluster-wide ({@link ClassQueueLua}): the order spans
     * every instance's tickets, and a full queue refuses the newest ticket of the lightest class
     * wherever it waits (its instance answers it 429), or the arrival itself when none is lighter.
     * Client caps and depth bounds apply only while the local fallback serves.
     */
    @Override
    public Ticket enqueue(int maxDepth, QueueClass cls, QueueClient client) throws QueueFullException, LimiterUnavailableException {
        QueuePlace place = new QueuePlace(cls, client);
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, got " + maxDepth);
        }
        if (!link.up()) {
            return fallback.admit(this, maxDepth, place, arrivals.incrementAndGet(), live.values());
        }
        String id = link.newId();
        ClusterTicket ticket = new ClusterTicket(this, id, arrivals.incrementAndGet(), place, maxDepth);
        queued.put(id, ticket); // before the script: its grant may be pushed before the reply arrives
        EnqueueReply reply;
        try {
            reply = calls.enqueue(id, maxDepth, place);
        } catch (RedisUnavailable e) {
            if (queued.remove(id) == null) {
                return ticket; // the link-down listener already moved it to the fallback (or failed it)
            }
            return fallback.admit(this, maxDepth, place, arrivals.incrementAndGet(), live.values());
        }
        switch (reply) {
            case EnqueueReply.Granted g -> {
                queued.remove(id);
                return ClusterTicket.granted(this, id, newPermit(id, null));
            }
            case EnqueueReply.QueueFull full -> {
                queued.remove(id);
                throw new QueueFullException(name, full.waiters(), maxDepth);
            }
            case EnqueueReply.Queued q -> {
                pump.atNextEvent(q.nextEventMs());
                return ticket;
            }
            case EnqueueReply.NoneFree n -> throw new IllegalStateException("ENQUEUE in queue mode answered none-free");
        }
    }

    @Override
    public Permit tryAcquire() throws LimiterUnavailableException {
        if (link.up()) {
            String id = link.newId();
            try {
                return calls.tryTake(id) ? newPermit(id, null) : null;
            } catch (RedisUnavailable e) {
                // fall back below
            }
        }
        Permit p = fallback.tryAcquire(live.values());
        return p == null ? null : adoptLocal(p);
    }

    @Override
    public void onRateLimited() {
        if (headroomWindow.isZero() || limit == 1) {
            return;
        }
        fallback.onRateLimited();
        try {
            calls.headroom(headroomWindow);
            pump.after(headroomWindow);
        } catch (RedisUnavailable e) {
            // the local limiter withholds its slot; the cluster's returns with Redis
        }
    }

    /** See {@link ClusterCounts}. */
    @Override
    public LimiterSnapshot snapshot() {
        return counts.snapshot();
    }

    @Override
    public LimiterView view() {
        return counts.view();
    }

    /** Tickets queued in Redis by every instance; -1 while Redis is unreachable. */
    long clusterWaiters() {
        return counts.clusterWaiters();
    }

    @Override
    public String toString() {
        return "ClusterLimiter[" + name + ", limit " + limit + ", " + calls.baseKey() + "]";
    }

    // ---- fallback ----

    /** A permit of the fallback limiter, given an id so it can be registered in Redis when Redis returns. */
    Permit adoptLocal(Permit localPermit) {
        return newPermit(link.newId(), localPermit);
    }

    private ClusterPermit newPermit(String id, Permit localPermit) {
        ClusterPermit p = new ClusterPermit(this, id, localPermit);
        live.put(id, p);
        if (localPermit == null && !link.up()) {
            fallback.count(List.of(p)); // granted by Redis as the link went down: the outage's bound counts it
        }
        return p;
    }

    /** A fallback slot of a permit that ended: to a running permit the fallback does not count yet, while Redis is away. */
    boolean handOverLocalSlot(Permit slot) {
        return !link.up() && fallback.handOver(slot, live.values());
    }

    @Override
    public void linkDown() {
        List<ClusterTicket> waiting = new ArrayList<>(queued.values());
        waiting.forEach(t -> queued.remove(t.id()));
        fallback.takeOver(live.values(), waiting);
    }

    @Override
    public void linkUp() {
        renew();
    }

    // ---- Redis side of tickets and permits ----

    /**
     * A grant arrived, pushed or reported by a renewal (both may report the same one: the lock and
     * the live map make the second a no-op). A grant for a ticket that no longer waits goes back unused.
     */
    @Override
    public void granted(String ticketId) {
        ClusterPermit p;
        synchronized (grantLock) {
            if (live.containsKey(ticketId)) {
                return;
            }
            ClusterTicket t = queued.remove(ticketId);
            if (t != null) {
                p = newPermit(ticketId, null);
                if (t.granted(p)) {
                    return;
                }
                live.remove(ticketId);
            } else {
                p = new ClusterPermit(this, ticketId, null);
            }
        }
        returnUnused(p);
    }

    /** A heavier arrival took this ticket's place in the full cluster-wide queue (pushed, or reported by a renewal). */
    @Override
    public void refused(String ticketId) {
        ClusterTicket t = queued.remove(ticketId);
        if (t != null) {
            t.refused();
        }
    }

    /** Leaves the Redis queue after a cancel or timeout; a grant that won the race goes back unused. */
    void leave(ClusterTicket t) {
        queued.remove(t.id());
        calls.leave(t.id());
    }

    /** A granted slot nobody claimed: back to Redis without cooldown. */
    void returnUnused(Permit p) {
        ClusterPermit cp = (ClusterPermit) p;
        live.remove(cp.id());
        calls.releaseInBackground(cp.id(), Duration.ZERO, true);
    }

    /** Called once per permit by {@link ClusterPermit#releaseAfter}; never blocks (see {@link LeaseCalls#releaseInBackground}). */
    void released(ClusterPermit p, Duration hold) {
        live.remove(p.id());
        calls.releaseInBackground(p.id(), p.hold(), false, p.sample(), adaptive::moved);
        Duration back = hold.plus(releaseCooldown);
        if (back.isPositive()) {
            pump.after(back);
        }
    }

    /** What {@code s} tells the shared adaptive limit; nothing for a fixed limit. */
    SharedSample judge(LoadSample s) {
        return adaptive.judge(s);
    }

    /** This instance's permits, and its tickets queued in Redis, for the renewal. */
    List<ClusterPermit> runningPermits() {
        return new ArrayList<>(live.values());
    }

    List<ClusterTicket> queuedTickets() {
        return new ArrayList<>(queued.values());
    }

    void renew() {
        if (link.up()) {
            renewal.run();
        }
    }

    /** Pumps at the next expiry Redis reported (for the renewal). */
    void schedulePump(long delayMs) {
        pump.atNextEvent(delayMs);
    }
}
