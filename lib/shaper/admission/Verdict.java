package shaper.admission;

import shaper.breaker.Admission;

/** The {@link AdmissionChain}'s answer: every link admitted the request, or one refused it. */
public sealed interface Verdict permits Verdict.Admitted, Refusal {

    /**
     * The request may go upstream.
     *
     * @param breaker the breaker's admission, to report the result with (or to cancel)
     * @param slots   the limiter slots it holds, given back by {@link Slots#dispose}
     */
    record Admitted(Admission breaker, Slots slots) implements Verdict {
    }
}
