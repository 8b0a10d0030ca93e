package shaper.admission;

import java.time.Duration;

/**
 * How an admitted exchange ended, as far as its slots care.
 *
 * @param reachedUpstream  an upstream attempt was started
 * @param status           the status committed to the client (0 if none)
 * @param upstreamFailure  the upstream failed (5xx, 429, rate-limit 403, transport error)
 * @param clientAborted    the client left or a write to it failed
 * @param localError       the proxy itself failed (an unexpected exception)
 * @param retryAfter       the upstream's Retry-After, or zero
 */
public record ExchangeEnd(boolean reachedUpstream, int status, boolean upstreamFailure, boolean clientAborted,
                          boolean localError, Duration retryAfter) {
    /**
     * A client abort suppresses penalties only when the status is ambiguous (nothing committed, or
     * the proxy's own 502): then the failure may be the abort's consequence, not the upstream's.
     */
    boolean suppressedAbort() {
        return clientAborted && (status == 0 || status == 502);
    }
}
