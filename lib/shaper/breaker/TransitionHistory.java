package shaper.breaker;

import java.util.ArrayList;
import java.util.List;

/**
 * A breaker's last {@link CircuitBreaker#KEPT_TRANSITIONS} transitions, oldest first: an immutable
 * value replaced together with the state it led to, so the history and the state never disagree.
 * Transitions are rare (each needs a failure, an elapsed open wait or a probe's answer), so copying
 * this short list on each one costs nothing that matters.
 */
record TransitionHistory(List<BreakerTransition> kept) {
    static final TransitionHistory NONE = new TransitionHistory(List.of());

    TransitionHistory {
        kept = List.copyOf(kept);
    }

    /** This history with one more transition, the oldest dropped past the bound. */
    TransitionHistory then(BreakerState from, BreakerState to, BreakerSnapshot after) {
        long sequence = kept.isEmpty() ? 1 : kept.getLast().sequence() + 1;
        List<BreakerTransition> next = new ArrayList<>(kept.subList(Math.max(0, kept.size() + 1 - CircuitBreaker.KEPT_TRANSITIONS),
                kept.size()));
        next.add(new BreakerTransition(sequence, from, to, after));
        return new TransitionHistory(next);
    }

    /** The newest transition; only called on a history that has one. */
    BreakerTransition newest() {
        return kept.getLast();
    }

    /** The kept transitions numbered above {@code sequence}, oldest first. */
    List<BreakerTransition> since(long sequence) {
        return kept.stream().filter(t -> t.sequence() > sequence).toList();
    }
}
