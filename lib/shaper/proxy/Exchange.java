package shaper.proxy;

import java.time.Duration;

import shaper.admission.ExchangeEnd;
import shaper.limit.LoadSample;
import shaper.observe.EndReason;
import shaper.observe.ExchangeTrace;
import shaper.observe.Outcome;
import shaper.observe.Provenance;
import shaper.retry.FailureClass;

/**
 * What happened to one exchange so far; written by its handler thread only, read in its
 * {@code finally} to give the slots back and to build the exchange's one record. The stage
 * stamps live in {@link #trace}, which other threads may read while the exchange runs.
 */
final class Exchange {
    final ExchangeTrace trace;
    int status;
    Outcome outcome = Outcome.ABORTED;
    /** Set where an exit path is not evident from the fields below; null lets {@link #reason()} derive it. */
    EndReason reason;
    /** Set to override the reason's provenance (the transcoder's local conversion failures); usually null. */
    Provenance provenance;
    boolean reachedUpstream;
    boolean clientAborted;
    boolean localError;
    FailureClass failure = FailureClass.NEUTRAL;
    /** Why an attempt said the upstream is overloaded ({@code "429"}, {@code "early SSE error"}), empty while none did. */
    String overload = "";
    Duration retryAfter = Duration.ZERO;

    Exchange(ExchangeTrace trace) {
        this.trace = trace;
    }

    ExchangeEnd end() {
        return new ExchangeEnd(reachedUpstream, status, failure.isUpstreamFailure(), clientAborted, localError, retryAfter);
    }

    /**
     * What this exchange tells an adaptive limit: overloaded if any attempt said so; served when the
     * last attempt's response head arrived; unjudged when the upstream never answered (a transport
     * failure, a client that left first, a local error).
     *
     * @param requestBytes the request body's length, -1 when unknown
     */
    LoadSample loadSample(long requestBytes) {
        if (!reachedUpstream || localError) {
            return LoadSample.UNJUDGED;
        }
        long ttfb = trace.upstreamFirstByteNanos();
        if (!overload.isEmpty()) {
            return LoadSample.overloaded(overload, ttfb, requestBytes);
        }
        return ttfb < 0 ? LoadSample.UNJUDGED : LoadSample.served(ttfb, requestBytes);
    }

    /** Records an attempt's overload signal; the first one names the cause. */
    void overloaded(String cause) {
        if (overload.isEmpty() && !cause.isEmpty()) {
            overload = cause;
        }
    }

    /** Ends with {@code reason}, as a local answer of {@code status} (0 keeps the status already set). */
    void ended(EndReason why, Outcome how, int code) {
        reason = why;
        outcome = how;
        if (code > 0) {
            status = code;
        }
    }

    /** Why the exchange ended: the explicit reason, else what the fields say. */
    EndReason reason() {
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

    /** The failure provenance: the override, an upstream error status relayed as is, else the reason's own. */
    Provenance provenance(EndReason why) {
        if (provenance != null) {
            return provenance;
        }
        if (why == EndReason.COMPLETED && reachedUpstream && status >= 400) {
            return Provenance.UPSTREAM_HTTP;
        }
        return why.provenance();
    }
}
