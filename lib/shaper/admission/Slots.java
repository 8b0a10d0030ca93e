package shaper.admission;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import shaper.limit.LoadSample;
import shaper.limit.Permit;

/**
 * The permits one exchange holds, and the rule for giving them back (the first of these that
 * applies, the release cooldown always on top, applied by the limiter):
 * <ol>
 *   <li>a local error releases at once;</li>
 *   <li>a 429 from the upstream withholds one slot of the owning limiter (adaptive headroom, if on);</li>
 *   <li>an upstream failure not caused by a client abort holds the slot for the breaker's phantom
 *       penalty, or, when that is zero, for {@code -failure-hold};</li>
 *   <li>otherwise a client that left after the upstream was contacted holds it for {@code -cancel-cooldown};</li>
 *   <li>otherwise the slot is released.</li>
 * </ol>
 * Disposal happens once; later calls do nothing.
 */
public final class Slots {
    private final AdmissionClass cls;
    private final List<Permit> permits;
    private final AdmissionConfig config;
    private final HeldSlots held;
    private boolean disposed;

    Slots(AdmissionClass cls, List<Permit> permits, AdmissionConfig config) {
        this(cls, permits, config, null);
    }

    /** @param held where a hold is noted with its reason, for the dashboard; null notes nothing */
    Slots(AdmissionClass cls, List<Permit> permits, AdmissionConfig config, HeldSlots held) {
        this.cls = cls;
        this.permits = List.copyOf(permits);
        this.config = config;
        this.held = held;
    }

    /**
     * Tells every limiter whose slot the exchange holds how the upstream answered (an adaptive limit
     * learns from it; a fixed one ignores it). Call once, before {@link #dispose}.
     */
    public void report(LoadSample sample) {
        if (!disposed) {
            permits.forEach(p -> p.report(sample));
        }
    }

    /** True when the exchange holds a route or default-pool slot. */
    public boolean limited() {
        return cls.limited();
    }

    /**
     * Gives the slots back according to how the exchange ended.
     *
     * @param penalty the breaker's phantom penalty to apply after an upstream failure (zero when off)
     */
    public void dispose(ExchangeEnd end, Supplier<Duration> penalty) {
        if (disposed) {
            return;
        }
        disposed = true;
        Duration hold = Duration.ZERO;
        try {
            if (config.adaptiveHeadroom() && end.reachedUpstream() && end.status() == 429 && cls.owner() != null) {
                cls.owner().onRateLimited();
            }
            Duration[] asked = new Duration[1]; // the penalty, asked at most once and only when hold() needs it
            hold = hold(end, () -> asked[0] = penalty.get());
            if (held != null && hold.isPositive() && !permits.isEmpty()) {
                held.started(reason(end, asked[0]), hold);
            }
        } finally {
            // whatever the bookkeeping above throws, the slots go back (at once if no hold was decided)
            for (Permit p : permits) {
                p.releaseAfter(hold);
            }
        }
    }

    /** Why {@link #hold} holds (called only when it does). */
    private static HeldSlots.Reason reason(ExchangeEnd end, Duration penalty) {
        if (end.reachedUpstream() && end.upstreamFailure() && !end.suppressedAbort()) {
            return penalty != null && penalty.isPositive() ? HeldSlots.Reason.PHANTOM_PENALTY : HeldSlots.Reason.FAILURE_HOLD;
        }
        return HeldSlots.Reason.CANCEL_COOLDOWN;
    }

    Duration hold(ExchangeEnd end, Supplier<Duration> penalty) {
        if (end.localError()) {
            return Duration.ZERO;
        }
        if (end.reachedUpstream() && end.upstreamFailure() && !end.suppressedAbort()) {
            Duration p = penalty.get();
            return p.isPositive() ? p : config.failureHold();
        }
        if (end.reachedUpstream() && end.clientAborted()) {
            return config.cancelCooldown();
        }
        return Duration.ZERO;
    }
}
