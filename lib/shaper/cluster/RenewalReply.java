package shaper.cluster;

import java.util.List;

/**
 * What {@link LeaseScripts#RENEW} answered.
 *
 * @param granted     queued tickets Redis had granted meanwhile: their wake-up was missed
 * @param lostPermits permits Redis no longer knows (its data was lost): to register again
 * @param lostTickets tickets neither queued nor granted in Redis: to queue again
 * @param nextEventMs ms until the next expiry that could free a slot; -1 when none is due
 * @param refused     queued tickets a full queue refused for a heavier arrival: that message was missed
 */
record RenewalReply(List<String> granted, List<String> lostPermits, List<String> lostTickets, long nextEventMs,
                    List<String> refused) {
    RenewalReply {
        refused = List.copyOf(refused);
        granted = List.copyOf(granted);
        lostPermits = List.copyOf(lostPermits);
        lostTickets = List.copyOf(lostTickets);
    }

    /** Whether Redis lost anything of this instance's. */
    boolean lostAny() {
        return !lostPermits.isEmpty() || !lostTickets.isEmpty();
    }

    static RenewalReply decode(Object raw) {
        List<?> r = (List<?>) raw;
        return new RenewalReply(LeaseCalls.strings(r.get(0)), LeaseCalls.strings(r.get(1)), LeaseCalls.strings(r.get(2)),
                LeaseCalls.number(r.get(3)), LeaseCalls.strings(r.get(4)));
    }
}
