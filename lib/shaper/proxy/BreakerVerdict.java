package shaper.proxy;

import java.time.Duration;

import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.retry.FailureClass;

/**
 * What one upstream call tells the circuit breaker, decided by one pure function for plain requests
 * and upgrades alike: success only when the answer was 2xx and reached the client completely; an
 * upstream failure (5xx, 429, a transport error, a cut body) counts; a client that left judges
 * nothing; anything else (a bare 4xx) is neutral.
 */
public sealed interface BreakerVerdict {
    record Success() implements BreakerVerdict {
    }

    record Failure(Duration retryAfter) implements BreakerVerdict {
    }

    record Neutral() implements BreakerVerdict {
    }

    record Cancel() implements BreakerVerdict {
    }

    /**
     * @param delivered  the whole answer reached the client
     * @param failure    the call's failure class
     * @param retryAfter the upstream's Retry-After, zero when none
     * @param clientLeft the client left before the call could be judged
     */
    static BreakerVerdict of(boolean delivered, FailureClass failure, Duration retryAfter, boolean clientLeft) {
        if (delivered && failure.isSuccess()) {
            return new Success();
        }
        if (failure.isUpstreamFailure()) {
            return new Failure(retryAfter);
        }
        return clientLeft ? new Cancel() : new Neutral();
    }

    /** Tells {@code breaker} about the call admitted with {@code admission}. */
    default void report(CircuitBreaker breaker, Admission admission) {
        switch (this) {
            case Success s -> breaker.recordSuccess(admission);
            case Failure f -> breaker.recordFailure(admission, f.retryAfter());
            case Neutral n -> breaker.recordNeutral(admission);
            case Cancel c -> breaker.cancel(admission);
        }
    }
}
