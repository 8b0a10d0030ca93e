package shaper.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import shaper.limit.FifoLimiter;
import shaper.limit.Limiter;
import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterUnavailableException;
import shaper.limit.Permit;
import shaper.limit.QueueFullException;
import shaper.limit.Ticket;
import shaper.limit.TimeSource;

/**
 * A {@link Limiter} whose slots and queue live in Redis and are shared by every instance that uses
 * the same namespace and key: the cluster-wide lease semaphore of {@link LeaseScripts}.
 *
 * <pre>
 *   enqueue ─ENQUEUE─▶ granted ───────────────────────────────▶ ClusterPermit (renewed every lease/3)
 *              │ queued: ticket id in Redis, local waiter parks        │ release / releaseAfter(hold)
 *              ▼                                                       ▼
 *   a release anywhere runs pump ─▶ PUBLISH to the owner ─▶ waiter wakes   RELEASE: hold = expiry, then cooldown
 *   missed push? the renewal (every lease/3) reports it; a slot freed by expiry: timer at the next expiry
 * </pre>
 * While its {@link RedisLink} is down, the {@link RedisFallback} decides: {@code local} admits
 * through an in-process {@link FifoLimiter} of the same size (queued tickets move there in arrival
 * order; running permits take a local slot so the instance's own limit counts them), {@code closed}
 * refuses with {@link LimiterUnavailableException}. When Redis is back, every running permit is
 * re-registered in Redis (even past the limit), so new grants wait until the cluster total is back
 * under the limit. Thread-safe.
 */
final class ClusterLimiter implements Limiter, RedisLink.Listener {
    static final String UNAVAILABLE = "cluster limiter unavailable (redis unreachable)";

    private final String name;
    private final int limit;
    private final Duration releaseCooldown;
    private final Duration headroomWindow;
    private final Duration lease;
    private final RedisLink link;
    private final FifoLimiter local;
    private final String baseKey;
    private final List<String> keys;
    private final List<String> common;
    private final Map<String, ClusterTicket> queued = new ConcurrentHashMap<>();
    private final Map<String, ClusterPermit> live = new ConcurrentHashMap<>();
    private final Object grantLock = new Object();
    private final AtomicLong arrivals = new AtomicLong();
    private final LeaseTimers timers;

    ClusterLimiter(String namespace, String key, String name, int limit, Duration releaseCooldown, Duration headroomWindow,
                   Duration lease, RedisLink link, TimeSource time) {
        this.name = name;
        this.limit = limit;
        this.releaseCooldown = releaseCooldown;
        this.headroomWindow = headroomWindow;
        this.lease = lease;
        this.link = link;
        this.local = new FifoLimiter(name, limit, releaseCooldown, headroomWindow, time);
        this.baseKey = namespace + ":" + key;
        this.keys = List.of(baseKey + ":p", baseKey + ":c", baseKey + ":q", baseKey + ":ql", baseKey + ":qa",
                baseKey + ":seq", baseKey + ":h");
        this.common = List.of(Integer.toString(limit), Long.toString(releaseCooldown.toMillis()), Long.toString(lease.toMillis()),
                link.channelPrefix(), headroomWindow.isZero() ? "0" : "1");
        this.timers = new LeaseTimers(time, link::closed);
        link.register(baseKey, this);
        timers.every(lease.dividedBy(3), "shaper-cluster-renew", this::renew);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticket enqueue(int maxDepth) throws QueueFullException, LimiterUnavailableException {
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, got " + maxDepth);
        }
        if (!link.up()) {
            return fallbackEnqueue(maxDepth);
        }
        String id = link.newId();
        ClusterTicket ticket = new ClusterTicket(this, id, arrivals.incrementAndGet());
        queued.put(id, ticket); // before the script: its grant may be pushed before the reply arrives
        List<?> r;
        try {
            r = (List<?>) link.eval(LeaseScripts.ENQUEUE, keys, args(id, Integer.toString(maxDepth), "queue"));
        } catch (RedisUnavailable e) {
            if (queued.remove(id) == null) {
                return ticket; // the link-down listener already moved it to the fallback (or failed it)
            }
            return fallbackEnqueue(maxDepth);
        }
        long code = (Long) r.get(0);
        if (code == 1) {
            queued.remove(id);
            return ClusterTicket.granted(this, id, newPermit(id, null));
        }
        if (code == 2) {
            queued.remove(id);
            throw new QueueFullException(name, (int) (long) (Long) r.get(1), maxDepth);
        }
        schedulePump((Long) r.get(1));
        return ticket;
    }

    @Override
    public Permit tryAcquire() throws LimiterUnavailableException {
        if (link.up()) {
            String id = link.newId();
            try {
                List<?> r = (List<?>) link.eval(LeaseScripts.ENQUEUE, keys, args(id, "0", "try"));
                return (Long) r.get(0) == 1 ? newPermit(id, null) : null;
            } catch (RedisUnavailable e) {
                // fall back below
            }
        }
        if (link.fallback() == RedisFallback.CLOSED) {
            throw new LimiterUnavailableException(name, UNAVAILABLE);
        }
        Permit p = local.tryAcquire();
        return p == null ? null : adoptLocal(p);
    }

    @Override
    public void onRateLimited() {
        if (headroomWindow.isZero() || limit == 1) {
            return;
        }
        local.onRateLimited();
        try {
            link.eval(LeaseScripts.HEADROOM, keys, args(Long.toString(headroomWindow.toMillis())));
            pumpAfter(headroomWindow.plusMillis(1));
        } catch (RedisUnavailable e) {
            // the local limiter withholds its slot; the cluster's returns with Redis
        }
    }

    @Override
    public LimiterSnapshot snapshot() {
        if (link.up()) {
            try {
                List<?> r = (List<?>) link.eval(LeaseScripts.STATE, keys, common);
                int withheld = (int) (long) (Long) r.get(3);
                int inUse = (int) Math.min(limit, (Long) r.get(0));
                int cooling = (int) Math.min(limit - inUse, (Long) r.get(1));
                int waiters = (int) (long) (Long) r.get(2);
                int idle = waiters > 0 ? 0 : Math.max(0, limit - withheld - inUse - cooling);
                return new LimiterSnapshot(name, limit, Math.max(1, limit - withheld), inUse, cooling, idle, waiters,
                        Duration.ofMillis((Long) r.get(4)));
            } catch (RedisUnavailable e) {
                // fall back below
            }
        }
        return local.snapshot();
    }

    @Override
    public String toString() {
        return "ClusterLimiter[" + name + ", limit " + limit + ", " + baseKey + "]";
    }

    // ---- fallback ----

    private Ticket fallbackEnqueue(int maxDepth) throws QueueFullException, LimiterUnavailableException {
        if (link.fallback() == RedisFallback.CLOSED) {
            throw new LimiterUnavailableException(name, UNAVAILABLE);
        }
        Ticket t = local.enqueue(maxDepth);
        if (!t.queued()) {
            try {
                return ClusterTicket.granted(this, "local", adoptLocal(t.await(Duration.ZERO)));
            } catch (Exception e) {
                throw new IllegalStateException("a granted local ticket could not be claimed", e);
            }
        }
        return ClusterTicket.ofLocal(this, t, arrivals.incrementAndGet());
    }

    /** A permit of the fallback limiter, given an id so it can be registered in Redis when Redis returns. */
    Permit adoptLocal(Permit localPermit) {
        return newPermit(link.newId(), localPermit);
    }

    private ClusterPermit newPermit(String id, Permit localPermit) {
        ClusterPermit p = new ClusterPermit(this, id, localPermit);
        live.put(id, p);
        return p;
    }

    @Override
    public void linkDown() {
        List<ClusterTicket> waiting = new ArrayList<>(queued.values());
        waiting.sort(Comparator.comparingLong(t -> t.arrival));
        for (ClusterTicket t : waiting) {
            queued.remove(t.id());
            t.redisLost(() -> {
                if (link.fallback() == RedisFallback.CLOSED) {
                    return null;
                }
                try {
                    return local.enqueue(0);
                } catch (QueueFullException e) {
                    throw new IllegalStateException("an unbounded enqueue was refused", e);
                }
            });
        }
        if (link.fallback() == RedisFallback.LOCAL) {
            live.values().forEach(p -> p.countLocally(local));
        }
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
            p = new ClusterPermit(this, ticketId, null);
            if (t != null) {
                live.put(ticketId, p);
                if (t.granted(p)) {
                    return;
                }
                live.remove(ticketId);
            }
        }
        returnUnused(p);
    }

    /** Leaves the Redis queue after a cancel or timeout; a grant that won the race goes back unused. */
    void leave(ClusterTicket t) {
        queued.remove(t.id());
        try {
            link.eval(LeaseScripts.LEAVE, keys, args(t.id()));
        } catch (RedisUnavailable e) {
            // the ticket's lease runs out in Redis: nobody renews it any more
        }
    }

    /** A granted slot nobody claimed: back to Redis without cooldown. */
    void returnUnused(Permit p) {
        ClusterPermit cp = (ClusterPermit) p;
        live.remove(cp.id());
        inBackground(() -> {
            try {
                link.eval(LeaseScripts.RELEASE, keys, args(cp.id(), "0", "1"));
            } catch (RedisUnavailable e) {
                // its lease runs out in Redis
            }
        });
    }

    /**
     * Called once per permit by {@link ClusterPermit#releaseAfter}. The Redis side runs on its own
     * virtual thread, so a release never blocks (the {@link Permit} contract): the request thread,
     * which may serve the connection's next request, does not wait for the round trip.
     */
    void released(ClusterPermit p, Duration hold) {
        live.remove(p.id());
        inBackground(() -> sendRelease(p));
        Duration back = hold.plus(releaseCooldown);
        if (back.isPositive()) {
            pumpAfter(back.plusMillis(1));
        }
    }

    private void sendRelease(ClusterPermit p) {
        try {
            link.eval(LeaseScripts.RELEASE, keys, args(p.id(), Long.toString(p.hold().toMillis()), "0"));
        } catch (RedisUnavailable e) {
            // its lease runs out in Redis
        }
    }

    /**
     * Renews this instance's permits and queued tickets, delivers grants whose push was missed, and
     * re-registers what Redis lost. A permit released or a ticket gone while the call ran is
     * released or removed again afterwards, so a renewal never resurrects it for longer than a call.
     */
    void renew() {
        if (!link.up()) {
            return;
        }
        List<ClusterPermit> permits = new ArrayList<>(live.values());
        List<ClusterTicket> tickets = new ArrayList<>(queued.values());
        if (permits.isEmpty() && tickets.isEmpty()) {
            return;
        }
        tickets.sort(Comparator.comparingLong(t -> t.arrival));
        List<String> ids = new ArrayList<>();
        ids.add(Integer.toString(permits.size()));
        permits.forEach(p -> ids.add(p.id()));
        tickets.forEach(t -> ids.add(t.id()));
        try {
            List<?> r = (List<?>) link.eval(LeaseScripts.RENEW, keys, args(ids.toArray(String[]::new)));
            for (Object g : (List<?>) r.get(0)) {
                granted((String) g);
            }
            List<?> lostPermits = (List<?>) r.get(1);
            List<?> lostTickets = (List<?>) r.get(2);
            if (!lostPermits.isEmpty() || !lostTickets.isEmpty()) {
                List<String> again = new ArrayList<>();
                again.add(Integer.toString(lostPermits.size()));
                lostPermits.forEach(o -> again.add((String) o));
                lostTickets.forEach(o -> again.add((String) o));
                schedulePump((Long) link.eval(LeaseScripts.REASSERT, keys, args(again.toArray(String[]::new))));
            } else {
                schedulePump((Long) r.get(3));
            }
            permits.stream().filter(ClusterPermit::released).forEach(this::sendRelease);
            // Only tickets given up during the call: one granted meanwhile (pushed, or reported by
            // this renewal) holds a running permit under its id, and LEAVE would take it away.
            tickets.stream().filter(ClusterTicket::abandoned).forEach(this::leave);
        } catch (RedisUnavailable e) {
            // the link is down now; its listeners take over
        }
    }

    /** Grants due slots at the next expiry Redis reported, while this instance has tickets queued. */
    private void schedulePump(long delayMs) {
        if (delayMs > 0 && !queued.isEmpty()) {
            timers.earliest(Duration.ofMillis(delayMs), "shaper-cluster-pump", this::pump);
        }
    }

    /** A slot returns after {@code delay} (a hold, a cooldown, a headroom window): grant it, wherever its waiter is. */
    private void pumpAfter(Duration delay) {
        timers.later(delay, "shaper-cluster-pump", this::pump);
    }

    private void pump() {
        try {
            schedulePump((Long) link.eval(LeaseScripts.PUMP, keys, common));
        } catch (RedisUnavailable e) {
            // the link is down now
        }
    }

    private static void inBackground(Runnable redisCall) {
        Thread.ofVirtual().name("shaper-cluster-release").start(redisCall);
    }

    private List<String> args(String... extra) {
        List<String> a = new ArrayList<>(common.size() + extra.length);
        a.addAll(common);
        a.addAll(List.of(extra));
        return a;
    }
}
