package shaper.cluster;

import java.time.Duration;
import java.util.List;

import shaper.limit.LimiterSnapshot;

/**
 * One limiter's state in Redis, as {@link LeaseScripts#STATE} reports it after granting due slots.
 *
 * @param inUse       permits in Redis, holds included (may exceed the limit after a re-registration)
 * @param cooling     released slots in their cooldown
 * @param waiters     tickets queued cluster-wide, every instance's
 * @param withheld    slots withheld by adaptive headroom (0 or 1)
 * @param oldestAgeMs how long the cluster's oldest ticket has waited; 0 when none waits
 * @param inForce     the limit in force before headroom: the shared adaptive limit, or the configured one
 */
record LeaseState(long inUse, long cooling, long waiters, int withheld, long oldestAgeMs, int inForce) {
    /**
     * The limiter's snapshot: slots as Redis counts them (capped at the limit after a
     * re-registration past it), waiters as {@code mine} (this instance's own).
     */
    LimiterSnapshot snapshot(String name, int limit, int mine) {
        int used = (int) Math.min(limit, inUse);
        int cool = (int) Math.min(limit - used, cooling);
        int effective = Math.max(1, Math.min(limit, inForce) - withheld);
        int idle = waiters > 0 ? 0 : Math.max(0, effective - used - cool);
        return new LimiterSnapshot(name, limit, effective, used, cool, idle, mine,
                mine == 0 ? Duration.ZERO : Duration.ofMillis(oldestAgeMs));
    }

    static LeaseState decode(Object raw) {
        List<?> r = (List<?>) raw;
        return new LeaseState(LeaseCalls.number(r.get(0)), LeaseCalls.number(r.get(1)), LeaseCalls.number(r.get(2)),
                Math.toIntExact(LeaseCalls.number(r.get(3))), LeaseCalls.number(r.get(4)),
                Math.toIntExact(LeaseCalls.number(r.get(5))));
    }
}
