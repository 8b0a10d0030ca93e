package shaper.cluster;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import shaper.limit.AdaptiveConcurrency;
import shaper.limit.FifoLimiter;
import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterView;
import shaper.limit.LimiterUnavailableException;
import shaper.limit.Permit;
import shaper.limit.QueuePlace;
import shaper.limit.QueueFullException;
import shaper.limit.Ticket;
import shaper.limit.TimeSource;

/**
 * What one {@link ClusterLimiter} admits through while its Redis link is down: nothing
 * ({@link RedisFallback#CLOSED}), or an in-process {@link FifoLimiter} of the same size
 * ({@link RedisFallback#LOCAL}).
 *
 * <p>The bound it keeps: this instance never runs more than {@code limit} exchanges of the limiter
 * during an outage, <b>counting the ones Redis granted before it</b>. Before any fallback admission
 * (and first thing when the link goes down, before queued tickets move here) every running permit
 * takes a local slot. A running permit that finds none (more were running than the limit, after a
 * re-registration past it, or slots still cooling) is counted by hand-over instead: when a counted
 * permit ends during the outage its local slot passes to an uncounted one rather than to a waiter.
 * So the cluster as a whole runs at most instances × limit while Redis is away. Thread-safe: the
 * counting runs under one lock, so an admission never overtakes it.
 */
final class LocalFallback {
    static final String UNAVAILABLE = "cluster limiter unavailable (redis unreachable)";

    private final String name;
    private final RedisFallback mode;
    private final FifoLimiter local;
    private final Object countLock = new Object();

    /** @param adaptive {@code null} for a fixed limit; else the local limit learns on its own during an outage */
    LocalFallback(String name, RedisFallback mode, int limit, Duration releaseCooldown, Duration headroomWindow, TimeSource time,
                  AdaptiveConcurrency adaptive) {
        this.name = name;
        this.mode = mode;
        this.local = new FifoLimiter(name, limit, releaseCooldown, headroomWindow, time, adaptive);
    }

    RedisFallback mode() {
        return mode;
    }

    /**
     * Joins the local queue after counting {@code running}.
     *
     * @throws LimiterUnavailableException failing closed
     */
    Ticket enqueue(int maxDepth, QueuePlace place, Collection<ClusterPermit> running) throws QueueFullException, LimiterUnavailableException {
        refuseIfClosed();
        count(running);
        return local.enqueue(maxDepth, place.cls(), place.client());
    }

    /** A free local slot after counting {@code running}, or null. */
    Permit tryAcquire(Collection<ClusterPermit> running) throws LimiterUnavailableException {
        refuseIfClosed();
        count(running);
        return local.tryAcquire();
    }

    /**
     * Admits a request of {@code limiter} here: a granted ticket holding an adopted permit, or one
     * waiting in the local queue in class {@code cls}.
     */
    Ticket admit(ClusterLimiter limiter, int maxDepth, QueuePlace place, long arrival, Collection<ClusterPermit> running)
            throws QueueFullException, LimiterUnavailableException {
        Ticket t = enqueue(maxDepth, place, running);
        if (!t.queued()) {
            try {
                return ClusterTicket.granted(limiter, "local", limiter.adoptLocal(t.await(Duration.ZERO)));
            } catch (Exception e) {
                throw new IllegalStateException("a granted local ticket could not be claimed", e);
            }
        }
        return ClusterTicket.ofLocal(limiter, t, arrival, place);
    }

    /**
     * Redis went away: counts {@code running} first (the tickets moved next must not take the
     * running permits' slots), then moves {@code waiting} here in arrival order, or fails them.
     */
    void takeOver(Collection<ClusterPermit> running, List<ClusterTicket> waiting) {
        count(running);
        waiting.stream().sorted(Comparator.comparingLong(t -> t.arrival)).forEach(t -> t.redisLost(() -> requeue(t.place())));
    }

    /** A place in the local queue for a ticket whose Redis queue was lost; {@code null} when failing closed. */
    Ticket requeue(QueuePlace place) {
        if (mode == RedisFallback.CLOSED) {
            return null;
        }
        try {
            return local.enqueue(0, place.cls(), place.client());
        } catch (QueueFullException e) {
            throw new IllegalStateException("an unbounded enqueue was refused", e);
        }
    }

    /** Gives every running permit that has none a local slot while one is free (see the class doc). */
    void count(Collection<ClusterPermit> running) {
        if (mode == RedisFallback.CLOSED) {
            return;
        }
        synchronized (countLock) {
            for (ClusterPermit p : running) {
                if (!p.counted()) {
                    Permit slot = local.tryAcquire();
                    if (slot == null) {
                        return; // the rest are counted by hand-over as slots come back
                    }
                    if (!p.countWith(slot)) {
                        slot.release(); // it ended meanwhile: the slot was never used
                    }
                }
            }
        }
    }

    /**
     * A counted permit ended during the outage: its slot goes to a running permit still uncounted,
     * if there is one ({@code true}); otherwise the caller releases it as usual.
     */
    boolean handOver(Permit slot, Collection<ClusterPermit> running) {
        synchronized (countLock) {
            for (ClusterPermit p : running) {
                if (!p.counted() && p.countWith(slot)) {
                    return true;
                }
            }
            return false;
        }
    }

    void onRateLimited() {
        local.onRateLimited();
    }

    LimiterSnapshot snapshot() {
        return local.snapshot();
    }

    LimiterView view() {
        return local.view();
    }

    private void refuseIfClosed() throws LimiterUnavailableException {
        if (mode == RedisFallback.CLOSED) {
            throw new LimiterUnavailableException(name, UNAVAILABLE);
        }
    }
}
