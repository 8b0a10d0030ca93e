package shaper.breaker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/** {@code -circuit-breaker=false}: admits everything, remembers nothing, never holds a slot. */
final class DisabledCircuitBreaker implements CircuitBreaker {
    private final BreakerConfig config;
    private final LongSupplier nanoTime;

    DisabledCircuitBreaker(BreakerConfig config, LongSupplier nanoTime) {
        this.config = config;
        this.nanoTime = nanoTime;
    }

    @Override
    public BreakerConfig config() {
        return config;
    }

    @Override
    public Admission allow() {
        return new Admission.Allowed(0, nanoTime.getAsLong(), false);
    }

    @Override
    public void recordSuccess(Admission admission) {
        Objects.requireNonNull(admission, "admission");
    }

    @Override
    public void recordFailure(Admission admission, Duration retryAfter) {
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(retryAfter, "retryAfter");
    }

    @Override
    public void recordNeutral(Admission admission) {
        Objects.requireNonNull(admission, "admission");
    }

    @Override
    public void cancel(Admission admission) {
        Objects.requireNonNull(admission, "admission");
    }

    @Override
    public Duration penalty() {
        return Duration.ZERO;
    }

    @Override
    public BreakerSnapshot snapshot() {
        return new BreakerSnapshot(BreakerState.CLOSED, 0, 0, config.openTimeoutAfter(0), false, Duration.ZERO, Duration.ZERO);
    }

    @Override
    public List<BreakerTransition> transitionsSince(long sequence) {
        return List.of();
    }
}
