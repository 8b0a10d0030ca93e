package shaper.proxy;

import shaper.observe.EndReason;
import shaper.observe.Outcome;
import shaper.retry.FailureClass;

/**
 * A relay (passthrough or converted) broke after its answer was committed: the client left
 * ({@link StreamCopy.SinkFailed}) or the upstream did ({@link StreamCopy.SourceFailed}). Carries the
 * exchange as it stood, so the attempt loop can end it without any stage writing shared state.
 * An expected outcome: no stack trace.
 */
final class RelayBroke extends RuntimeException {
    private final ExchangeResult result;

    private RelayBroke(ExchangeResult result, RuntimeException cause) {
        super(cause.getMessage(), cause, false, false);
        this.result = result;
    }

    /** Runs a write of an answer already committed as {@code result}, turning a copy failure into a {@code RelayBroke}. */
    static void guard(ExchangeResult result, Runnable write) {
        try {
            write.run();
        } catch (StreamCopy.SinkFailed | StreamCopy.SourceFailed e) {
            throw new RelayBroke(result, e);
        }
    }

    ExchangeResult result() {
        return result;
    }

    /** True when the client side failed (it left or stopped reading). */
    boolean clientSide() {
        return getCause() instanceof StreamCopy.SinkFailed;
    }

    /**
     * The exchange ended by this break; the client connection is cut after the record, so the answer
     * can never look complete.
     *
     * @param proxyStopping graceful stop is cutting streams (its grace is over)
     * @param deadlineCut   the upstream call outlived {@code -upstream-timeout}
     */
    ExchangeResult ended(boolean proxyStopping, boolean deadlineCut) {
        if (proxyStopping) {
            return result.ended(EndReason.PROXY_STOPPED, Outcome.ABORTED, 0).cut("the proxy is stopping");
        }
        if (clientSide() && deadlineCut) {
            return result.failure(FailureClass.TRANSPORT_ERROR).cut("upstream call outlived -upstream-timeout");
        }
        if (clientSide()) {
            return result.clientLeft().cut("client left mid-response");
        }
        // Dropping the client connection is the only honest signal once a status is committed:
        // finishing the response normally would make a truncated body look complete.
        return result.failure(result.failure().isUpstreamFailure() ? result.failure() : FailureClass.TRANSPORT_ERROR)
                .ended(EndReason.UPSTREAM_BROKE_OFF, Outcome.ABORTED, 0).cut("upstream broke off mid-response");
    }
}
