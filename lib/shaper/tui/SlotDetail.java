package shaper.tui;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Why a provider's slots are not serving anyone, and how its limits moved: what the Concurrency
 * tab and the gauges draw beside the limiter counts.
 *
 * @param held        slots held after their exchange ended, by limiter name (failure hold, phantom penalty, cancel cooldown)
 * @param holdReasons the reasons of the holds running now, e.g. {@code failure hold}; empty when none
 * @param moves       the last move of each limiter's limit in force seen by the dashboard, by limiter name
 * @param adaptive    whether {@code -adaptive-concurrency} moves the limits
 * @param minimum     {@code -concurrency-min}, the floor of an adaptive limit
 */
public record SlotDetail(Map<String, Integer> held, List<String> holdReasons, Map<String, LimitMove> moves, boolean adaptive,
                         int minimum) {
    public static final SlotDetail NONE = new SlotDetail(Map.of(), List.of(), Map.of(), false, 1);

    /**
     * A limit in force that moved (adaptive concurrency, headroom, a reload).
     *
     * @param from the limit before
     * @param to   the limit now
     * @param at   when the dashboard saw it move
     */
    public record LimitMove(int from, int to, Instant at) {
    }

    public SlotDetail {
        held = Map.copyOf(held);
        holdReasons = List.copyOf(holdReasons);
        moves = Map.copyOf(moves);
    }

    /** Held slots of the limiter named {@code name}. */
    int held(String name) {
        return held.getOrDefault(name, 0);
    }

    /** " (failure hold)" or " (failure hold, cancel cooldown)"; "" when no reason is known. */
    String reasons() {
        return holdReasons.isEmpty() ? "" : " (" + String.join(", ", holdReasons) + ")";
    }
}
