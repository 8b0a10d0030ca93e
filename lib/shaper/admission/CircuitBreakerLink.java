package shaper.admission;

import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;

/**
 * The chain's first link: asks the provider's circuit breaker, before the request waits for any
 * slot, so an open circuit never queues anyone. The ticket it grants is reported by the request
 * path with the upstream's verdict; the chain cancels it when a later link refuses.
 */
public final class CircuitBreakerLink implements AdmissionLink {
    private final CircuitBreaker breaker;

    CircuitBreakerLink(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    @Override
    public LinkResult admit(AdmissionRequest request) {
        return switch (breaker.allow()) {
            case Admission.Allowed allowed -> new LinkResult.BreakerTicket(breaker, allowed);
            case Admission.Rejected rejected -> new Refusal.CircuitOpen(breaker.snapshot().nextProbeIn());
        };
    }
}
