package shaper.breaker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The enabled breaker: the current {@link CircuitState} in one {@link AtomicReference}, replaced
 * by compare-and-set with the value its pure transition methods compute. The thread whose
 * compare-and-set changes the state tells the listeners, once per transition.
 */
final class DefaultCircuitBreaker implements CircuitBreaker {
    private final BreakerConfig config;
    private final LongSupplier nanoTime;
    private final AtomicReference<CircuitState> current = new AtomicReference<>(CircuitState.initial());
    private final List<BreakerListener> listeners;

    DefaultCircuitBreaker(BreakerConfig config, LongSupplier nanoTime, List<BreakerListener> listeners) {
        this.config = config;
        this.nanoTime = nanoTime;
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public BreakerConfig config() {
        return config;
    }

    @Override
    public Admission allow() {
        while (true) {
            CircuitState seen = current.get();
            // Time is read after the state, so a retry never judges a newer state with an older clock reading.
            long now = nanoTime.getAsLong();
            CircuitState.Step step = seen.admit(now, config);
            if (step.next() == seen) {
                return step.admission();
            }
            if (current.compareAndSet(seen, step.next())) {
                announce(seen, step.next(), now);
                return step.admission();
            }
        }
    }

    @Override
    public void recordSuccess(Admission admission) {
        settle(admission, CircuitState.Result.SUCCESS, Duration.ZERO);
    }

    @Override
    public void recordFailure(Admission admission, Duration retryAfter) {
        Objects.requireNonNull(retryAfter, "retryAfter");
        settle(admission, CircuitState.Result.FAILURE, retryAfter);
    }

    @Override
    public void recordNeutral(Admission admission) {
        settle(admission, CircuitState.Result.NEUTRAL, Duration.ZERO);
    }

    @Override
    public void cancel(Admission admission) {
        // To the state machine a cancelled request is a neutral one: it only frees the probe.
        settle(admission, CircuitState.Result.NEUTRAL, Duration.ZERO);
    }

    @Override
    public Duration penalty() {
        CircuitState s = current.get();
        return config.penaltyAfter(s.consecutiveFailures(), Duration.ofNanos(s.lastRetryAfterNanos()));
    }

    @Override
    public BreakerState state() {
        return current.get().state();
    }

    @Override
    public BreakerSnapshot snapshot() {
        return current.get().snapshot(nanoTime.getAsLong(), config);
    }

    private void settle(Admission admission, CircuitState.Result result, Duration retryAfter) {
        Objects.requireNonNull(admission, "admission");
        if (!(admission instanceof Admission.Allowed allowed)) {
            return;
        }
        long retryAfterNanos = BreakerConfig.nanos(retryAfter);
        while (true) {
            CircuitState seen = current.get();
            long now = nanoTime.getAsLong();
            CircuitState next = seen.settle(allowed, result, retryAfterNanos, now, config);
            if (next == seen) {
                return;
            }
            if (current.compareAndSet(seen, next)) {
                announce(seen, next, now);
                return;
            }
        }
    }

    /** Called by the compare-and-set winner only; each listener isolated from the others. */
    private void announce(CircuitState before, CircuitState after, long now) {
        if (before.state() == after.state() || listeners.isEmpty()) {
            return;
        }
        BreakerSnapshot snapshot = after.snapshot(now, config);
        for (BreakerListener l : listeners) {
            try {
                l.transition(before.state(), after.state(), snapshot);
            } catch (RuntimeException e) {
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e);
            }
        }
    }
}
