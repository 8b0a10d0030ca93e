package shaper.breaker;

/**
 * Hears a breaker's state transitions, each exactly once, from the thread whose compare-and-set
 * made it (so two quick transitions are two calls, each with the counts of its own state). A
 * listener must be quick and must not call back into the breaker; one that throws is isolated:
 * the breaker and the other listeners go on.
 */
@FunctionalInterface
public interface BreakerListener {

    /**
     * @param from the state before
     * @param to   the state after
     * @param now  the breaker as the transition left it
     */
    void transition(BreakerState from, BreakerState to, BreakerSnapshot now);
}
