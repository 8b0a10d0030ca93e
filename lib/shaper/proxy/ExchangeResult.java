package shaper.proxy;

import java.time.Duration;
import java.util.List;

import shaper.admission.ExchangeEnd;
import shaper.limit.LoadSample;
import shaper.observe.ExchangeEnding;
import shaper.observe.EndReason;
import shaper.observe.ExchangeRecord;
import shaper.observe.ExchangeTrace;
import shaper.observe.Header;
import shaper.observe.Outcome;
import shaper.observe.Provenance;
import shaper.retry.FailureClass;
import shaper.routing.FallbackWhy;

/**
 * What one exchange's stages concluded, immutable: each stage (admission, an attempt, the relay, a
 * local answer) returns a new value from the one before, and the handler folds the last into the
 * exchange's one {@link ExchangeRecord} and the slots' {@link ExchangeEnd}.
 *
 * @param status          the status committed to the client, 0 when none
 * @param outcome         clean, aborted or failed, as far as known
 * @param reason          the explicit end reason, or null to derive it ({@link #why()})
 * @param provenance      overrides the reason's provenance (a local conversion failure), or null
 * @param reachedUpstream an upstream attempt was started
 * @param clientAborted   the client left (or a write to it failed)
 * @param localError      the proxy itself failed
 * @param failure         the last attempt's failure class for the slots and the breaker
 * @param retryAfter      the upstream's Retry-After, or zero
 * @param cut             why the client connection must be dropped once the record is published
 *                        (a committed answer that cannot be finished honestly), or null
 * @param overload        why an attempt said the upstream is overloaded ({@code "429"}, {@code "early SSE error"}),
 *                        the first such cause; empty while none did ({@link AnswerJudge})
 * @param moved           why the exchange leaves its target for the next one of its route, nothing of the answer
 *                        sent; null when it ends here
 */
record ExchangeResult(int status, Outcome outcome, EndReason reason, Provenance provenance, boolean reachedUpstream,
                      boolean clientAborted, boolean localError, FailureClass failure, Duration retryAfter, String cut,
                      String overload, FallbackWhy moved) {

    /** Nothing has happened yet: no status, not reached, and aborted unless a stage says otherwise. */
    static final ExchangeResult START = new ExchangeResult(0, Outcome.ABORTED, null, null, false, false, false,
            FailureClass.NEUTRAL, Duration.ZERO, null, "", null);

    /** Ended for {@code why}, {@code how}, with {@code code} committed (0 keeps the status already committed). */
    ExchangeResult ended(EndReason why, Outcome how, int code) {
        return new ExchangeResult(code > 0 ? code : status, how, why, provenance, reachedUpstream, clientAborted, localError,
                failure, retryAfter, cut, overload, moved);
    }

    /** {@code code} committed to the client. */
    ExchangeResult committed(int code) {
        return new ExchangeResult(code, outcome, reason, provenance, reachedUpstream, clientAborted, localError, failure, retryAfter, cut, overload, moved);
    }

    ExchangeResult outcome(Outcome how) {
        return new ExchangeResult(status, how, reason, provenance, reachedUpstream, clientAborted, localError, failure, retryAfter, cut, overload, moved);
    }

    /** The client left: whatever else happened, the exchange is its abort. */
    ExchangeResult clientLeft() {
        return new ExchangeResult(status, Outcome.ABORTED, reason, provenance, reachedUpstream, true, localError, failure, retryAfter, cut, overload, moved);
    }

    /** An attempt was started. */
    ExchangeResult reached() {
        return reachedUpstream ? this
                : new ExchangeResult(status, outcome, reason, provenance, true, clientAborted, localError, failure, retryAfter, cut, overload, moved);
    }

    /** The last attempt's verdict on the upstream. */
    ExchangeResult judged(FailureClass f, Duration upstreamRetryAfter) {
        return new ExchangeResult(status, outcome, reason, provenance, reachedUpstream, clientAborted, localError, f, upstreamRetryAfter, cut, overload, moved);
    }

    ExchangeResult failure(FailureClass f) {
        return judged(f, retryAfter);
    }

    /** The proxy itself failed (a conversion it cannot do, an exception). */
    ExchangeResult failedLocally() {
        return new ExchangeResult(status, outcome, reason, provenance, reachedUpstream, clientAborted, true, failure, retryAfter, cut, overload, moved);
    }

    ExchangeResult provenance(Provenance p) {
        return new ExchangeResult(status, outcome, reason, p, reachedUpstream, clientAborted, localError, failure, retryAfter, cut, overload, moved);
    }

    /** The client connection is dropped after the record: a committed answer ended dishonestly otherwise. */
    ExchangeResult cut(String why) {
        return new ExchangeResult(status, Outcome.ABORTED, reason, provenance, reachedUpstream, clientAborted, localError, failure,
                retryAfter, why, overload, moved);
    }

    /**
     * The exchange moves on to its route's next target for {@code why}: its status is still open (or a
     * queue-comment or keepalive stream is, with nothing of an answer on it).
     */
    ExchangeResult moved(FallbackWhy why) {
        return new ExchangeResult(status, outcome, reason, provenance, reachedUpstream, clientAborted, localError, failure, retryAfter, cut,
                overload, why);
    }

    /** An attempt's overload signal ({@link AnswerJudge}); the first one names the cause. */
    ExchangeResult overloaded(String cause) {
        return overload.isEmpty() && !cause.isEmpty()
                ? new ExchangeResult(status, outcome, reason, provenance, reachedUpstream, clientAborted, localError, failure,
                        retryAfter, cut, cause, moved)
                : this;
    }

    /**
     * What this exchange tells an adaptive limit: overloaded if any attempt said so; served when the
     * last attempt's response head arrived; unjudged when the upstream never answered (a transport
     * failure, a client that left first, a local error).
     *
     * @param ttfbNanos    the last attempt's upstream time to first byte, -1 when no head arrived
     * @param requestBytes the request body's length, -1 when unknown
     */
    LoadSample loadSample(long ttfbNanos, long requestBytes) {
        if (!reachedUpstream || localError) {
            return LoadSample.UNJUDGED;
        }
        if (!overload.isEmpty()) {
            return LoadSample.overloaded(overload, ttfbNanos, requestBytes);
        }
        return ttfbNanos < 0 ? LoadSample.UNJUDGED : LoadSample.served(ttfbNanos, requestBytes);
    }

    /** Why the exchange ended: the explicit reason, else what the facts say. */
    EndReason why() {
        if (clientAborted) {
            return EndReason.CLIENT_LEFT;
        }
        if (reason != null) {
            return reason;
        }
        if (localError) {
            return EndReason.LOCAL_ERROR;
        }
        return switch (outcome) {
            case CLEAN, LOCAL -> EndReason.COMPLETED;
            case ABORTED -> reachedUpstream ? EndReason.UPSTREAM_BROKE_OFF : EndReason.CLIENT_LEFT;
            case FAILED -> EndReason.LOCAL_ERROR;
        };
    }

    /** Which side failed: the override, an upstream error status relayed as is, else the reason's own. */
    Provenance blame(EndReason why) {
        if (provenance != null) {
            return provenance;
        }
        if (why == EndReason.COMPLETED && reachedUpstream && status >= 400) {
            return Provenance.UPSTREAM_HTTP;
        }
        return why.provenance();
    }

    /** How the exchange ended, as its slots care. */
    ExchangeEnd slots() {
        return new ExchangeEnd(reachedUpstream, status, failure.isUpstreamFailure(), clientAborted, localError, retryAfter);
    }

    /** The exchange's one record. */
    ExchangeRecord record(ExchangeTrace trace, List<Header> requestHeaders, List<Header> responseHeaders) {
        EndReason why = why();
        return trace.finish(new ExchangeEnding(status, outcome, why, blame(why)), requestHeaders, responseHeaders);
    }
}
