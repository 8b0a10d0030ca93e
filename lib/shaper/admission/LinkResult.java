package shaper.admission;

import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.limit.Limiter;
import shaper.limit.Permit;

/** What one {@link AdmissionLink} answers: something the request now holds, or a {@link Refusal}. */
public sealed interface LinkResult permits LinkResult.Hold, Refusal {

    /** Something the request holds until it ends; {@link #giveBack} returns it unused. */
    sealed interface Hold extends LinkResult {
        void giveBack();
    }

    /** The link does not apply to this request: nothing held. */
    record Pass() implements Hold {
        @Override
        public void giveBack() {
        }
    }

    /** A limiter's slot. */
    record Slot(Limiter limiter, Permit permit) implements Hold {
        @Override
        public void giveBack() {
            permit.release();
        }
    }

    /** The breaker's ticket: its result must be reported once the request ends. */
    record BreakerTicket(CircuitBreaker breaker, Admission.Allowed admission) implements Hold {
        @Override
        public void giveBack() {
            breaker.cancel(admission);
        }
    }

    /** The shared nothing-held answer. */
    Pass PASS = new Pass();
}
