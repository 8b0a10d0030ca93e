package shaper.breaker;

import java.time.Duration;

/**
 * One immutable value of a breaker's memory. Every transition of the state machine is a pure
 * method here that returns the next value; {@link DefaultCircuitBreaker} only publishes it by
 * CAS. The epoch changes on every transition and on every probe issued, so a result is applied
 * only when it belongs to the period in which its request was admitted.
 *
 * @param state               current state
 * @param epoch               admission generation; see {@link Admission.Allowed#epoch()}
 * @param failures            failure timestamps of the sliding window
 * @param openedAt            ticker value of the last transition to OPEN
 * @param backoff             failed probes since the circuit last closed
 * @param probeOutstanding    whether the half-open probe is in flight
 * @param probeStartedAt      ticker value when the outstanding probe was admitted
 * @param consecutiveFailures failures since the last success, saturating
 * @param lastRetryAfterNanos the last positive upstream Retry-After since the last success, or zero
 */
record CircuitState(
        BreakerState state,
        long epoch,
        FailureWindow failures,
        long openedAt,
        int backoff,
        boolean probeOutstanding,
        long probeStartedAt,
        int consecutiveFailures,
        long lastRetryAfterNanos) {

    /** Beyond this many doublings every open timeout is the cap anyway. */
    private static final int MAX_BACKOFF = Long.SIZE - 1;

    /** What the three result-reporting calls mean to the state machine. */
    enum Result { SUCCESS, FAILURE, NEUTRAL }

    /** The next value plus the answer given to the caller of {@code allow()}. */
    record Step(CircuitState next, Admission admission) {
    }

    static CircuitState initial() {
        return new CircuitState(BreakerState.CLOSED, 0, FailureWindow.EMPTY, 0, 0, false, 0, 0, 0);
    }

    /** Admission at {@code now}; an elapsed OPEN wait or a stuck probe lets a new probe through. */
    Step admit(long now, BreakerConfig config) {
        return switch (state) {
            case CLOSED -> new Step(this, new Admission.Allowed(epoch, now, false));
            case OPEN -> now - openedAt >= openTimeoutNanos(config) ? issueProbe(now) : new Step(this, Admission.REJECTED);
            case HALF_OPEN -> !probeOutstanding || now - probeStartedAt > BreakerConfig.nanos(config.openTimeout())
                    ? issueProbe(now)
                    : new Step(this, Admission.REJECTED);
        };
    }

    /** Applies one reported result at {@code now}; results of an older epoch change nothing. */
    CircuitState settle(Admission.Allowed admission, Result result, long retryAfterNanos, long now, BreakerConfig config) {
        if (admission.epoch() != epoch) {
            return this;
        }
        return switch (state) {
            case CLOSED -> settleClosed(result, retryAfterNanos, now, config);
            case HALF_OPEN -> settleProbe(result, retryAfterNanos, now);
            // Unreachable: opening bumps the epoch and nothing is admitted while OPEN.
            case OPEN -> this;
        };
    }

    long openTimeoutNanos(BreakerConfig config) {
        return BreakerConfig.nanos(config.openTimeoutAfter(backoff));
    }

    BreakerSnapshot snapshot(long now, BreakerConfig config) {
        long openWait = openTimeoutNanos(config);
        long left = state == BreakerState.OPEN ? Math.max(0, openWait - (now - openedAt)) : 0;
        return new BreakerSnapshot(state, failures.trim(now, BreakerConfig.nanos(config.window())).size(),
                consecutiveFailures, Duration.ofNanos(openWait), probeOutstanding,
                config.penaltyAfter(consecutiveFailures, Duration.ofNanos(lastRetryAfterNanos)), Duration.ofNanos(left));
    }

    private Step issueProbe(long now) {
        CircuitState next = new CircuitState(BreakerState.HALF_OPEN, epoch + 1, failures, openedAt, backoff,
                true, now, consecutiveFailures, lastRetryAfterNanos);
        return new Step(next, new Admission.Allowed(next.epoch, now, true));
    }

    private CircuitState settleClosed(Result result, long retryAfterNanos, long now, BreakerConfig config) {
        return switch (result) {
            case SUCCESS -> consecutiveFailures == 0 && lastRetryAfterNanos == 0
                    ? this
                    : new CircuitState(state, epoch, failures, openedAt, backoff, false, 0, 0, 0);
            case FAILURE -> {
                FailureWindow window = failures.add(now, BreakerConfig.nanos(config.window()));
                boolean trip = window.size() >= config.threshold();
                yield new CircuitState(trip ? BreakerState.OPEN : state, trip ? epoch + 1 : epoch, window,
                        trip ? now : openedAt, backoff, false, 0, oneMoreFailure(), retryAfter(retryAfterNanos));
            }
            case NEUTRAL -> this;
        };
    }

    private CircuitState settleProbe(Result result, long retryAfterNanos, long now) {
        return switch (result) {
            case SUCCESS -> new CircuitState(BreakerState.CLOSED, epoch + 1, FailureWindow.EMPTY, openedAt, 0, false, 0, 0, 0);
            case FAILURE -> new CircuitState(BreakerState.OPEN, epoch + 1, failures, now, Math.min(backoff + 1, MAX_BACKOFF),
                    false, 0, oneMoreFailure(), retryAfter(retryAfterNanos));
            // The probe proved nothing either way: free it so the next request probes again.
            case NEUTRAL -> new CircuitState(state, epoch + 1, failures, openedAt, backoff, false, 0,
                    consecutiveFailures, lastRetryAfterNanos);
        };
    }

    private int oneMoreFailure() {
        return consecutiveFailures == Integer.MAX_VALUE ? consecutiveFailures : consecutiveFailures + 1;
    }

    private long retryAfter(long reported) {
        return reported > 0 ? reported : lastRetryAfterNanos;
    }
}
