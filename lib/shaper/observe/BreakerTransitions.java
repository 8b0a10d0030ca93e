package shaper.observe;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import shaper.breaker.Admission;
import shaper.breaker.BreakerConfig;
import shaper.breaker.BreakerSnapshot;
import shaper.breaker.BreakerState;
import shaper.breaker.CircuitBreaker;

/**
 * A circuit breaker that writes one log line per state transition:
 * {@code breaker provider=p from=closed to=open failures=5 consecutive=5}. It compares the state
 * after each call with the last one it reported (a CAS on the reported state), so each
 * transition is logged once even when several threads see it; a transition that happens without
 * a call (an open wait elapsing) is logged at the call that observes it, as the breaker itself
 * only turns half-open on the next {@code allow()}. Disabled breakers are not wrapped.
 */
public final class BreakerTransitions implements CircuitBreaker {
    private final String provider;
    private final CircuitBreaker delegate;
    private final ExchangeLog log;
    private final AtomicReference<BreakerState> reported;

    private BreakerTransitions(String provider, CircuitBreaker delegate, ExchangeLog log) {
        this.provider = provider;
        this.delegate = delegate;
        this.log = log;
        this.reported = new AtomicReference<>(delegate.state());
    }

    /** {@code breaker} with transition lines, or {@code breaker} itself when it is disabled. */
    public static CircuitBreaker logged(String provider, CircuitBreaker breaker, ExchangeLog log) {
        return breaker.config().enabled() ? new BreakerTransitions(provider, breaker, log) : breaker;
    }

    private void check() {
        BreakerState state = delegate.state();
        BreakerState before = reported.get();
        if (state != before && reported.compareAndSet(before, state)) {
            BreakerSnapshot now = delegate.snapshot();
            log.info("breaker provider=" + provider + " from=" + label(before) + " to=" + label(state)
                    + " failures=" + now.failuresInWindow() + " consecutive=" + now.consecutiveFailures());
        }
    }

    @Override
    public BreakerState state() {
        return delegate.state();
    }

    private static String label(BreakerState s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public BreakerConfig config() {
        return delegate.config();
    }

    @Override
    public Admission allow() {
        Admission a = delegate.allow();
        check();
        return a;
    }

    @Override
    public void recordSuccess(Admission admission) {
        delegate.recordSuccess(admission);
        check();
    }

    @Override
    public void recordFailure(Admission admission, Duration retryAfter) {
        delegate.recordFailure(admission, retryAfter);
        check();
    }

    @Override
    public void recordNeutral(Admission admission) {
        delegate.recordNeutral(admission);
        check();
    }

    @Override
    public void cancel(Admission admission) {
        delegate.cancel(admission);
        check();
    }

    @Override
    public Duration penalty() {
        return delegate.penalty();
    }

    @Override
    public BreakerSnapshot snapshot() {
        return delegate.snapshot();
    }
}
