package shaper.breaker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The circuit breaker of one provider. See the package documentation for the state machine,
 * the input contract of the result calls and the penalty rule.
 *
 * <p>Use: call {@link #allow()} before queueing; on {@link Admission.Rejected} answer
 * {@code 503 circuit open}. Report every {@link Admission.Allowed} exactly once with one of
 * {@link #recordSuccess}, {@link #recordFailure}, {@link #recordNeutral} or {@link #cancel}.
 * Reporting a {@code Rejected} admission is a no-op, so a {@code finally} block may report
 * whatever {@code allow()} returned. All methods are thread-safe and never block.
 */
public interface CircuitBreaker {
    /** How many transitions {@link #transitionsSince} keeps: more than a dashboard frame ever sees. */
    int KEPT_TRANSITIONS = 32;

    /** A breaker for {@code config}, timed by {@code nanoTime}; a no-op one when the config disables it. */
    static CircuitBreaker of(BreakerConfig config, LongSupplier nanoTime) {
        return of(config, nanoTime, List.of());
    }

    /**
     * A breaker for {@code config}, timed by {@code nanoTime}, telling {@code listeners} of each
     * state transition (a disabled breaker has none to tell).
     */
    static CircuitBreaker of(BreakerConfig config, LongSupplier nanoTime, List<BreakerListener> listeners) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(nanoTime, "nanoTime");
        return config.enabled() ? new DefaultCircuitBreaker(config, nanoTime, listeners) : new DisabledCircuitBreaker(config, nanoTime);
    }

    /** A breaker for {@code config} on {@link System#nanoTime()}. */
    static CircuitBreaker of(BreakerConfig config) {
        return of(config, System::nanoTime);
    }

    /** The settings this breaker runs with. */
    BreakerConfig config();

    /**
     * Decides whether a request may go upstream now. An OPEN breaker whose wait has elapsed turns
     * HALF_OPEN here and admits the caller as its probe.
     */
    Admission allow();

    /** The upstream answered 2xx and the whole body reached the client. A probe success closes the circuit. */
    void recordSuccess(Admission admission);

    /**
     * The upstream failed: 5xx, 429, a transport error, or a 403 carrying rate-limit signals.
     *
     * @param retryAfter the upstream's Retry-After, {@link Duration#ZERO} when it sent none; never null
     */
    void recordFailure(Admission admission, Duration retryAfter);

    /**
     * The upstream answered something that says nothing about its health (a bare 403, another
     * 4xx). Changes no count; a half-open probe is freed so the next request probes again.
     */
    void recordNeutral(Admission admission);

    /**
     * The request ended before the upstream could judge it (queue timeout, client cancel,
     * queue-depth 429, a local failure). Changes no count; a half-open probe is freed.
     */
    void cancel(Admission admission);

    /**
     * How long to hold the slot after an upstream failure: grows exponentially with consecutive
     * failures from {@code penalty} to {@code maxPenalty}, never below the last upstream
     * Retry-After (itself capped). {@link Duration#ZERO} when the breaker is disabled, in which
     * case the caller falls back to {@code -failure-hold}.
     */
    Duration penalty();

    /** A consistent view for metrics and the TUI. */
    BreakerSnapshot snapshot();

    /**
     * The transitions numbered above {@code sequence}, oldest first; pass 0 for every one still kept,
     * then the last one's {@link BreakerTransition#sequence()} to get only what came after it. Only
     * the last {@link #KEPT_TRANSITIONS} are kept, so a reader that falls further behind finds a gap
     * in the numbers. Lets an occasional reader (the TUI, once a frame) see a flap between two of
     * its looks. A disabled breaker has none.
     */
    List<BreakerTransition> transitionsSince(long sequence);

    /** The current state alone, without building a snapshot. */
    default BreakerState state() {
        return snapshot().state();
    }
}
