package shaper.tui;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Completed exchanges per slot over the last 10 s, per provider, for the Dashboard's sparkline and
 * req/s: each frame's completed total minus the previous frame's falls into the slot of its time.
 * Confined to the render loop's thread.
 */
final class Throughput {
    static final Duration WINDOW = Duration.ofSeconds(10);
    /**
     * 40 slots of 250 ms: one per frame. Finer slots than the frame period would only show the
     * sampling, not the traffic.
     */
    static final int SLOTS = 40;
    private static final long SLOT_NANOS = WINDOW.toNanos() / SLOTS;

    private static final class Series {
        final ArrayDeque<long[]> slots = new ArrayDeque<>(); // {slotIndex, count}
        long lastTotal = -1;
    }

    private final Map<String, Series> byProvider = new HashMap<>();

    void observe(Frame frame) {
        long slot = slotOf(frame.at());
        for (ProviderFrame p : frame.providers()) {
            Series s = byProvider.computeIfAbsent(p.name(), k -> new Series());
            long total = p.completed();
            long delta = s.lastTotal < 0 ? 0 : Math.max(0, total - s.lastTotal);
            s.lastTotal = total;
            long[] last = s.slots.peekLast();
            if (last != null && last[0] == slot) {
                last[1] += delta;
            } else {
                s.slots.addLast(new long[]{slot, delta});
            }
            while (!s.slots.isEmpty() && s.slots.peekFirst()[0] <= slot - SLOTS) {
                s.slots.removeFirst();
            }
        }
    }

    /** Counts per slot for the last 10 s, oldest first, zero-filled ({@link #SLOTS} entries). */
    List<Long> slots(String provider, Instant now) {
        long end = slotOf(now);
        long[] counts = new long[SLOTS];
        Series s = byProvider.get(provider);
        if (s != null) {
            for (long[] e : s.slots) {
                long i = e[0] - (end - SLOTS + 1);
                if (i >= 0 && i < SLOTS) {
                    counts[(int) i] += e[1];
                }
            }
        }
        List<Long> out = new ArrayList<>(SLOTS);
        for (long c : counts) {
            out.add(c);
        }
        return out;
    }

    /** Completed exchanges per second over the window. */
    double perSecond(String provider, Instant now) {
        long sum = 0;
        for (long c : slots(provider, now)) {
            sum += c;
        }
        return sum / (double) WINDOW.toSeconds();
    }

    /** Forgets the history (after a reset the totals restart from zero). */
    void clear() {
        byProvider.clear();
    }

    private static long slotOf(Instant t) {
        return (t.getEpochSecond() * 1_000_000_000L + t.getNano()) / SLOT_NANOS;
    }
}
