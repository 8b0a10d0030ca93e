package shaper.tui;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import shaper.limit.LimiterSnapshot;

/**
 * Sees each limiter's limit in force move between two frames (adaptive concurrency, headroom, a
 * reload) and remembers the last move per limiter, for the Concurrency tab. The reason of an
 * adaptive move is in the Logs tab ({@code limit provider=… limiter=… 4 -> 3 (429)}). Confined to the
 * render loop's thread.
 */
final class LimitMoves {
    private final Map<String, Integer> last = new HashMap<>();
    private final Map<String, Map<String, SlotDetail.LimitMove>> moves = new HashMap<>();

    /** The last move of each of {@code provider}'s limiters, after noting what {@code limiter} shows now. */
    Map<String, SlotDetail.LimitMove> see(String provider, Iterable<LimiterSnapshot> limiters, Instant now) {
        Map<String, SlotDetail.LimitMove> mine = moves.computeIfAbsent(provider, k -> new HashMap<>());
        for (LimiterSnapshot l : limiters) {
            String key = provider + "\u0000" + l.name();
            Integer before = last.put(key, l.effectiveLimit());
            if (before != null && before != l.effectiveLimit()) {
                mine.put(l.name(), new SlotDetail.LimitMove(before, l.effectiveLimit(), now));
            }
        }
        return Map.copyOf(mine);
    }
}
