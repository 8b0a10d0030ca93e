package shaper.cluster;

import java.util.Comparator;
import java.util.List;

/**
 * The periodic round of one {@link ClusterLimiter} (every third of the lease, and once when the
 * link comes back): extends this instance's permits and queued tickets in Redis, delivers grants
 * and overflow refusals whose push was missed, and registers again what Redis lost (a restart without persistence, or a
 * failover to a replica that had not received it).
 *
 * <p>A permit released or a ticket given up while the call ran is released or removed again
 * afterwards, so a renewal never resurrects it for longer than one call. Only tickets given up
 * during the call go to LEAVE: a ticket granted meanwhile holds a running permit under its id, and
 * LEAVE would take it away.
 */
final class LeaseRenewal {
    private final ClusterLimiter limiter;
    private final LeaseCalls calls;

    LeaseRenewal(ClusterLimiter limiter, LeaseCalls calls) {
        this.limiter = limiter;
        this.calls = calls;
    }

    void run() {
        List<ClusterPermit> permits = limiter.runningPermits();
        List<ClusterTicket> tickets = limiter.queuedTickets().stream().sorted(Comparator.comparingLong(t -> t.arrival)).toList();
        if (permits.isEmpty() && tickets.isEmpty()) {
            return;
        }
        try {
            RenewalReply r = calls.renew(permits.stream().map(ClusterPermit::id).toList(), tickets.stream().map(ClusterTicket::id).toList());
            r.granted().forEach(limiter::granted);
            r.refused().forEach(limiter::refused);
            java.util.Set<String> lost = java.util.Set.copyOf(r.lostTickets());
            long next = r.lostAny()
                    ? calls.reassert(r.lostPermits(), tickets.stream().filter(t -> lost.contains(t.id())).toList())
                    : r.nextEventMs();
            limiter.schedulePump(next);
            // a release sent again: its sample went with the first
            permits.stream().filter(ClusterPermit::released).forEach(p -> calls.releaseInBackground(p.id(), p.hold(), false));
            tickets.stream().filter(ClusterTicket::abandoned).forEach(limiter::leave);
        } catch (RedisUnavailable e) {
            // the link is down now; its listeners take over
        }
    }
}
