package shaper.observe;

import java.util.Locale;

import shaper.breaker.BreakerListener;
import shaper.breaker.BreakerSnapshot;
import shaper.breaker.BreakerState;

/**
 * One log line per circuit breaker transition, told by the breaker itself from the thread that made
 * the transition: {@code breaker provider=p from=closed to=open failures=5 consecutive=5}, with the
 * counts of the state the transition produced. A transition that happens without a call (an open
 * wait elapsing) is told at the call that makes it, as the breaker only turns half-open on the next
 * {@code allow()}.
 */
public final class BreakerTransitions implements BreakerListener {
    private final String provider;
    private final ExchangeLog log;

    private BreakerTransitions(String provider, ExchangeLog log) {
        this.provider = provider;
        this.log = log;
    }

    /** The listener that logs {@code provider}'s transitions to {@code log}. */
    public static BreakerListener logTo(String provider, ExchangeLog log) {
        return new BreakerTransitions(provider, log);
    }

    @Override
    public void transition(BreakerState from, BreakerState to, BreakerSnapshot now) {
        log.info("breaker provider=" + provider + " from=" + label(from) + " to=" + label(to)
                + " failures=" + now.failuresInWindow() + " consecutive=" + now.consecutiveFailures());
    }

    private static String label(BreakerState s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
