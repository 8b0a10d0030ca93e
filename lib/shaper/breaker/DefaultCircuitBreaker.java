package shaper.breaker;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The enabled breaker: the current {@link CircuitState} in one {@link AtomicReference}, replaced
 * by compare-and-set with the value its pure transition methods compute.
 */
final class DefaultCircuitBreaker implements CircuitBreaker {
    private final BreakerConfig config;
    private final LongSupplier nanoTime;
    private final AtomicReference<CircuitState> current = new AtomicReference<>(CircuitState.initial());

    DefaultCircuitBreaker(BreakerConfig config, LongSupplier nanoTime) {
        this.config = config;
        this.nanoTime = nanoTime;
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
            CircuitState.Step step = seen.admit(nanoTime.getAsLong(), config);
            if (step.next() == seen || current.compareAndSet(seen, step.next())) {
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
            CircuitState next = seen.settle(allowed, result, retryAfterNanos, nanoTime.getAsLong(), config);
            if (next == seen || current.compareAndSet(seen, next)) {
                return;
            }
        }
    }
}
