package shaper.admission;

/**
 * One link of a provider's {@link AdmissionChain}: the circuit breaker, a limiter (route or default
 * pool, global, large-request gate), and whatever later policies add (token budgets, priority
 * classes). The contract is the same for every link: {@link #admit} either grants a
 * {@link LinkResult.Hold} (possibly {@link LinkResult#PASS} when the link does not apply) or
 * answers a typed {@link Refusal}. A link never answers the client and never releases what other
 * links granted; the chain does both.
 */
@FunctionalInterface
public interface AdmissionLink {

    /**
     * Admits {@code request} or refuses it. May wait (a limiter's FIFO queue), within the request's
     * one {@code -queue-timeout} budget.
     *
     * @throws InterruptedException the handler thread was interrupted (the proxy is cutting it)
     */
    LinkResult admit(AdmissionRequest request) throws InterruptedException;
}
