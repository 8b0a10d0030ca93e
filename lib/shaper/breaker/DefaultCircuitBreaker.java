package shaper.breaker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The enabled breaker: the current {@link CircuitState} and the transitions that led to it, in one
 * {@link AtomicReference}, replaced by compare-and-set with the value its pure transition methods
 * compute. The thread whose compare-and-set changes the state tells the listeners, once per
 * transition.
 */
final class DefaultCircuitBreaker implements CircuitBreaker {
    private final BreakerConfig config;
    private final LongSupplier nanoTime;
    private final AtomicReference<Memory> current = new AtomicReference<>(new Memory(CircuitState.initial(), TransitionHistory.NONE));
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
            Memory seen = current.get();
            // Time is read after the state, so a retry never judges a newer state with an older clock reading.
            long now = nanoTime.getAsLong();
            CircuitState.Step step = seen.state().admit(now, config);
            if (step.next() == seen.state()) {
                return step.admission();
            }
            Memory next = seen.then(step.next(), now, config);
            if (current.compareAndSet(seen, next)) {
                announce(seen, next);
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
        CircuitState s = current.get().state();
        return config.penaltyAfter(s.consecutiveFailures(), Duration.ofNanos(s.lastRetryAfterNanos()));
    }

    @Override
    public BreakerState state() {
        return current.get().state().state();
    }

    @Override
    public BreakerSnapshot snapshot() {
        return current.get().state().snapshot(nanoTime.getAsLong(), config);
    }

    @Override
    public List<BreakerTransition> transitionsSince(long sequence) {
        return current.get().history().since(sequence);
    }

    private void settle(Admission admission, CircuitState.Result result, Duration retryAfter) {
        Objects.requireNonNull(admission, "admission");
        if (!(admission instanceof Admission.Allowed allowed)) {
            return;
        }
        long retryAfterNanos = BreakerConfig.nanos(retryAfter);
        while (true) {
            Memory seen = current.get();
            long now = nanoTime.getAsLong();
            CircuitState settled = seen.state().settle(allowed, result, retryAfterNanos, now, config);
            if (settled == seen.state()) {
                return;
            }
            Memory next = seen.then(settled, now, config);
            if (current.compareAndSet(seen, next)) {
                announce(seen, next);
                return;
            }
        }
    }

    /** Called by the compare-and-set winner only; each listener isolated from the others. */
    private void announce(Memory before, Memory after) {
        if (before.history() == after.history() || listeners.isEmpty()) {
            return;
        }
        BreakerTransition made = after.history().newest();
        for (BreakerListener l : listeners) {
            try {
                l.transition(made.from(), made.to(), made.after());
            } catch (RuntimeException e) {
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e);
            }
        }
    }

    /**
     * The state and the transitions that led to it, published by one compare-and-set: the history
     * lists transitions in the order the state went through them, which listeners, told after the
     * compare-and-set by whichever thread won it, cannot promise when two threads move the state
     * within moments.
     */
    private record Memory(CircuitState state, TransitionHistory history) {
        /** {@code next} in place of this state, with its transition recorded when the state (not only a count) changed. */
        Memory then(CircuitState next, long now, BreakerConfig config) {
            return next.state() == state.state()
                    ? new Memory(next, history)
                    : new Memory(next, history.then(state.state(), next.state(), next.snapshot(now, config)));
        }
    }
}
