package shaper.proxy;

import shaper.breaker.Admission;
import shaper.codec.ContentCodings;
import shaper.proxy.watch.CallWatch;
import shaper.retry.RetryContext;
import shaper.retry.RetryDecision;

/**
 * One attempt's values in the attempts stage ({@link AttemptLoop}), replaced as a whole by each turn.
 *
 * @param call      the upstream call (uncoded once the body was rewritten)
 * @param body      the body it sends
 * @param codings   the body's codings: the client's, or identity for a converted or rewritten body
 * @param admission the breaker's admission for this attempt
 * @param retry     the attempt's number and the retry deadline
 * @param watch     the attempt's watch of the call (deadline, client gone); null before the first send
 */
record Turn(UpstreamCall call, RequestBody body, ContentCodings codings, Admission admission, RetryContext retry,
            CallWatch.Call watch) {
    Turn watched(CallWatch.Call w) {
        return new Turn(call, body, codings, admission, retry, w);
    }

    /** The next attempt: a new breaker admission and the retry's count. */
    Turn next(Admission again, RetryDecision.Retry r) {
        return new Turn(call, body, codings, again, retry.next(r), null);
    }

    /** The same attempt with a plain rewritten body (stale reasoning stripped): without the client's coding. */
    Turn rewritten(byte[] plain) {
        RequestBody replaced = new RequestBody.Buffered(plain, body.length() < 0);
        return codings.isIdentity() ? new Turn(call, replaced, codings, admission, retry, watch)
                : new Turn(call.uncoded(), replaced, ContentCodings.IDENTITY, admission, retry, watch);
    }
}
