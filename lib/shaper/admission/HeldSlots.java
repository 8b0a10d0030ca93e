package shaper.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import shaper.limit.TimeSource;

/**
 * Why one provider's slots are held right now: each exchange that {@link Slots} gives back with a
 * hold is noted with its reason until the hold ends, so the dashboard can say what a held slot
 * waits out (the limiters count held slots but never learn why). Holds are rare (failures and
 * cancels), so a small list under a lock is enough. Thread-safe.
 */
public final class HeldSlots {
    /** What keeps a slot after its exchange ended (the release cooldown that follows is the limiter's "cooling"). */
    public enum Reason {
        FAILURE_HOLD("failure hold"),
        PHANTOM_PENALTY("phantom penalty"),
        CANCEL_COOLDOWN("cancel cooldown");

        private final String label;

        Reason(String label) {
            this.label = label;
        }

        /** As the dashboard and README say it. */
        public String label() {
            return label;
        }
    }

    private record Hold(Reason reason, long endsAt) {
    }

    private final TimeSource time;
    private final List<Hold> holds = new ArrayList<>();

    HeldSlots(TimeSource time) {
        this.time = time;
    }

    /** An exchange's slots are held for {@code hold} because of {@code reason}. */
    synchronized void started(Reason reason, Duration hold) {
        long now = time.nanoTime();
        prune(now);
        holds.add(new Hold(reason, now + hold.toNanos()));
    }

    /** Exchanges whose slots are held now, by reason in declaration order; reasons with none left out. */
    public synchronized Map<Reason, Integer> now() {
        prune(time.nanoTime());
        Map<Reason, Integer> out = new LinkedHashMap<>();
        for (Reason r : Reason.values()) {
            int n = (int) holds.stream().filter(h -> h.reason == r).count();
            if (n > 0) {
                out.put(r, n);
            }
        }
        return out;
    }

    private void prune(long now) {
        holds.removeIf(h -> h.endsAt - now <= 0);
    }
}
