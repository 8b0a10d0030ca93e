package shaper.proxy;

import java.time.Duration;

import shaper.admission.ExchangeEnd;
import shaper.observe.Outcome;
import shaper.retry.FailureClass;

/**
 * What happened to one exchange so far; written by its handler thread only, read in its
 * {@code finally} to log, count and give the slots back.
 */
final class Exchange {
    int status;
    Outcome outcome = Outcome.ABORTED;
    boolean reachedUpstream;
    boolean clientAborted;
    boolean localError;
    FailureClass failure = FailureClass.NEUTRAL;
    Duration retryAfter = Duration.ZERO;

    ExchangeEnd end() {
        return new ExchangeEnd(reachedUpstream, status, failure.isUpstreamFailure(), clientAborted, localError, retryAfter);
    }
}
