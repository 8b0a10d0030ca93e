package shaper.proxy;

import java.time.Duration;

import shaper.breaker.Admission;
import shaper.codec.ContentCodings;
import shaper.observe.BodyPreview;
import shaper.retry.RetryConfig;
import shaper.retry.RetryContext;

/**
 * The attempts stage's entrance: what an admitted request sends and how. The body is buffered for
 * replay when retries are on and it fits; what is sent is handed to the {@link Settlement} (the usage
 * accounting reads it); a transcoded route converts the request once, before the first attempt; then
 * the {@link AttemptLoop} sends it, and from that moment reports the breaker ticket itself. Until then
 * (a client gone, a local conversion refusal, an exception) the settlement cancels it.
 */
final class AttemptStage {
    private AttemptStage() {
    }

    /**
     * Sends the admitted request, through the target's transcoded route when it has one: the request
     * is converted once before the first attempt (a local failure is answered then, and the breaker
     * admission is given back unused), and the accepted answer is converted instead of relayed.
     *
     * @throws StageFailed on an unexpected failure, carrying the exchange so far
     */
    static ExchangeResult forward(Carriage c, Target target, AdmissionStage.Admitted admitted, Settlement settlement) {
        ProviderAssembly provider = target.provider();
        // a route that maps the model asks this target for its own (before the transcoded route converts it)
        RequestBody body = replayable(target.mapped(admitted.body()), provider.config().retry());
        byte[] bytes = body.bytes();
        settlement.sent(bytes, c.exchange().coding());
        if (bytes != null) {
            c.trace().requestBody(BodyPreview.of(bytes, bytes.length));
        }
        if (!c.client().isOpen()) {
            return ExchangeResult.START.clientLeft();
        }
        Exchange ex = c.exchange();
        Admission admission = admitted.grant().breaker();
        Duration timeout = provider.config().retry().upstreamTimeout();
        if (target.transcoding() == null) {
            UpstreamCall call = new UpstreamCall(ex, provider.upstreams().destination(ex.path(), ex.query()), timeout, provider.rewrite());
            settlement.forwarded();
            return new AttemptLoop(c, target, null, new Turn(call, body, ex.coding().codings(), admission, first(provider), null)).run();
        }
        return switch (c.trace().transcoding("request", () -> target.transcoding().prepare(c, body))) {
            // refused locally: the settlement gives the unused breaker ticket back
            case TranscodeStage.Answered answered -> answered.result();
            case TranscodeStage.Converted conv -> {
                UpstreamCall call = new UpstreamCall(ex, provider.upstreams().destination(conv.prepared().upstreamPath(),
                        conv.prepared().query()), timeout, conv.rewrite());
                Turn turn = new Turn(call, conv.body(), ContentCodings.IDENTITY, admission, first(provider), null);
                settlement.forwarded();
                yield new AttemptLoop(c, target, conv.calling(call.displayUrl()), turn).run();
            }
        };
    }

    /** The first attempt's retry context: its deadline starts now. */
    private static RetryContext first(ProviderAssembly provider) {
        return RetryContext.first(provider.config().retry(), provider.time().wallClock());
    }

    /** The body to send: buffered (so it can be replayed) when retries are on and it fits, else as it is. */
    private static RequestBody replayable(RequestBody body, RetryConfig retry) {
        if (retry.enabled() && body instanceof RequestBody.Streamed) {
            return RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, retry.maxBodyBytes()));
        }
        return body;
    }
}
