package shaper.breaker;

import java.util.Objects;

/**
 * One state change of a breaker as the breaker itself recorded it, for a reader that looks only now
 * and then (the TUI, once a frame) yet must see every change, not only the state it happens to find:
 * a circuit that opened, probed and closed between two looks made three transitions.
 *
 * @param sequence 1 for the breaker's first transition, one more for each after it; a gap between
 *                 two that a reader got means it fell more than {@link CircuitBreaker#KEPT_TRANSITIONS}
 *                 behind
 * @param from     the state before
 * @param to       the state after; never {@code from}
 * @param after    the breaker as the transition left it
 */
public record BreakerTransition(long sequence, BreakerState from, BreakerState to, BreakerSnapshot after) {
    public BreakerTransition {
        if (sequence < 1) {
            throw new IllegalArgumentException("sequence: " + sequence + " (expected: >= 1)");
        }
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(after, "after");
        if (from == to) {
            throw new IllegalArgumentException("to: " + to + " (expected: a state other than from)");
        }
    }
}
