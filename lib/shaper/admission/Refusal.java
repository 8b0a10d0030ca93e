package shaper.admission;

import java.time.Duration;

/**
 * Why an admission link refused a request. The request path renders each one as a local answer in
 * the client's dialect; nothing was sent upstream and nothing is held.
 */
public sealed interface Refusal extends LinkResult, Verdict {

    /** The circuit breaker is open (or its probe is out). */
    record CircuitOpen(Duration untilProbe) implements Refusal {
    }

    /**
     * A limiter's waiter queue is at its {@code -queue-depth} bound; {@code retryAfter} is when the
     * limiter expects room (a token budget knows its refill), or null.
     */
    record QueueFull(int depth, java.time.Duration retryAfter) implements Refusal {
    }

    /** The {@code -queue-timeout} budget ran out, or ({@code stopping}) the proxy is stopping and admits no one. */
    record QueueTimeout(boolean stopping) implements Refusal {
    }

    /** A cluster limiter lost its shared store and fails closed. */
    record LimiterUnavailable() implements Refusal {
    }

    /** The client left (or the handler was interrupted) while the request waited. */
    record ClientGone() implements Refusal {
    }
}
