package shaper.proxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

import io.helidon.http.HeaderNames;
import shaper.proxy.client.UpstreamResponse;
import io.helidon.webserver.http.ServerRequest;
import shaper.breaker.Admission;
import shaper.codec.ContentCodings;
import shaper.observe.ExchangeTrace;
import shaper.observe.RetryLines;
import shaper.retry.FailureClass;
import shaper.retry.GiveUpReason;
import shaper.retry.HeaderLookup;
import shaper.retry.RetryAfter;
import shaper.retry.RetryContext;
import shaper.retry.RetryDecision;
import shaper.retry.UpstreamFailures;
import shaper.proxy.watch.CallWatch;
import shaper.proxy.watch.ClientConnection;

/**
 * One admitted request's attempts, on its own thread: send, judge the answer
 * ({@link ResponseDecision}), wait between attempts ({@link BackoffStep}), relay the accepted answer
 * ({@link ResponseRelay}, or the transcoded route's stage). Each attempt reports to the breaker;
 * success only once the body reached the client. The exchange so far is one immutable
 * {@link ExchangeResult}, replaced by each step.
 */
final class AttemptLoop {
    private final Forwarder f;
    private final ServerRequest req;
    private final ClientSink sink;
    private final String method;
    private final String rawPath;
    private final ClientConnection client;
    private final ExchangeTrace trace;
    private UpstreamCall call;
    /** The body was decoded and rewritten (stale-reasoning replay): it is plain now, whatever the client sent. */
    private boolean rewrittenPlain;
    /** The client's {@code Content-Encoding}, parsed once: asked for on every attempt and every backoff. */
    private final ContentCodings clientCodings;
    private final boolean replayable;
    /** The transcoded route's stage and this exchange's converted request; null for passthrough. */
    private final TranscodeStage stage;
    private final TranscodeStage.Converted converted;
    private RequestBody body;
    private Admission admission;
    private RetryContext ctx;
    private CallWatch.Call watch;
    private ExchangeResult result;

    AttemptLoop(Forwarder f, ServerRequest req, ClientSink sink, String rawPath, RequestBody body, ClientConnection client,
                ExchangeTrace trace, Admission admission, TranscodeStage stage, TranscodeStage.Converted converted, ExchangeResult so) {
        this.f = f;
        this.req = req;
        this.sink = sink;
        this.method = req.prologue().method().text();
        this.rawPath = rawPath;
        this.client = client;
        this.trace = trace;
        this.body = body;
        this.admission = admission;
        this.stage = stage;
        this.converted = converted;
        this.result = so;
        this.call = converted == null
                ? new UpstreamCall(req, f.upstreams().forPath(rawPath), rawPath, f.config().upstreamTimeout(), f.rewrite())
                : new UpstreamCall(req, f.upstreams().forPath(converted.prepared().upstreamPath()), converted.prepared().upstreamPath(),
                        converted.prepared().query(), f.config().upstreamTimeout(), converted.rewrite());
        // A body buffered only to wait in the queue may exceed -retry-max-body-mb: it is sent once.
        this.replayable = f.config().enabled() && switch (body) {
            case RequestBody.None none -> true;
            case RequestBody.Buffered buffered -> buffered.bytes().length <= f.config().maxBodyBytes();
            case RequestBody.Streamed streamed -> false;
        };
        this.ctx = RetryContext.first(f.config(), now());
        this.clientCodings = RequestCoding.codingsOf(req);
    }

    /** Runs the attempts; an unexpected failure comes out as {@link StageFailed} carrying the exchange so far. */
    ExchangeResult run() {
        try {
            while (attempt()) {
                // the next attempt
            }
            return result;
        } catch (RuntimeException | Error e) {
            throw new StageFailed(result.outcome(shaper.observe.Outcome.ABORTED), e);
        } finally {
            // every path, an Error included: a watch left registered would later interrupt this
            // thread (serving the connection's next request) or leave its channel non-blocking
            if (watch != null) {
                watch.close();
            }
        }
    }

    private Instant now() {
        return f.time().wallClock();
    }

    /** @return true to try again */
    private boolean attempt() {
        result = result.reached();
        UpstreamResponse in;
        watch = f.calls().begin(client, f.config().upstreamTimeout(), body instanceof RequestBody.Streamed);
        try {
            trace.attemptStarted();
            in = call.send(body, watch);
        } catch (RuntimeException e) {
            watch.close();
            if (watch.cut() == CallWatch.Cut.CLIENT_GONE || (e instanceof StreamCopy.SourceFailed && watch.cut() == CallWatch.Cut.NONE)) {
                return clientLeft();
            }
            return onTransportError(watch.cut() == CallWatch.Cut.DEADLINE ? timedOut() : e);
        }
        try { // from here on the answer is closed on every path: it holds the upstream connection
            trace.upstreamRequest(call.sentHeaders());
            trace.upstreamHeaders();
            watch.relaying();
            if (watch.cut() == CallWatch.Cut.CLIENT_GONE) {
                // the client left just as the head arrived: closing unread drops the upstream connection
                return clientLeft();
            }
            return onResponse(in);
        } finally {
            watch.close();
            in.close();
        }
    }

    private boolean clientLeft() {
        result = result.clientLeft();
        f.breaker().cancel(admission);
        return false;
    }

    private RuntimeException timedOut() {
        return new UpstreamTimeout(f.config().upstreamTimeout());
    }

    /** @return true to try again */
    private boolean onTransportError(RuntimeException e) {
        watch.close();
        f.log().info("upstream error provider=" + f.provider() + " method=" + method + " path=" + rawPath
                + " error=" + TransportErrors.describe(e));
        result = result.judged(FailureClass.TRANSPORT_ERROR, Duration.ZERO);
        f.breaker().recordFailure(admission, Duration.ZERO);
        RetryDecision d = replayable ? f.policy().decideTransportError(ctx, now()) : null;
        if (d instanceof RetryDecision.Retry r) {
            return backoff(r);
        }
        logGiveUp(d);
        result = sink.fail(result, LocalFailure.UPSTREAM_UNREACHABLE);
        return false;
    }

    /** @return true to try again */
    private boolean onResponse(UpstreamResponse in) {
        Instant receivedAt = now();
        int code = in.status().code();
        HeaderLookup headers = UpstreamHeaders.of(in.headers());
        f.assembly().tokens().onUpstreamHeaders(headers, code, receivedAt); // every answer, errors and discarded attempts included
        result = result.judged(UpstreamFailures.classify(code, headers, receivedAt),
                RetryAfter.remaining(headers, receivedAt, receivedAt).orElse(Duration.ZERO)).overloaded(OverloadSignal.ofStatus(code));
        String encoding = in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
        ResponseRelay.Plan plan = ResponseRelay.Plan.asIs(in);
        RetryDecision verdict = null;
        try {
            if (replayable && code >= 200 && code < 300 && f.config().inspectSse() && SsePeek.applies(in, encoding)) {
                SsePeek peek = SsePeek.of(in, encoding);
                plan = peek.plan();
                if (peek.hiddenError()) {
                    result = result.failure(FailureClass.SERVER_ERROR).overloaded(OverloadSignal.EARLY_SSE_ERROR);
                    verdict = f.policy().decideErrorUnder200(ctx, headers, receivedAt, now());
                }
            } else if (replayable && code >= 400) {
                byte[] raw = BodyPeek.prefix(in.inputStream(), BodyPeek.ERROR_PREFIX);
                byte[] decodedError = BodyPeek.decodedCopy(raw, encoding);
                result = result.overloaded(OverloadSignal.of(code, decodedError, f.config().retryStatus()));
                verdict = f.policy().decide(ctx, code, headers, decodedError, receivedAt, now());
                plan = new ResponseRelay.Plan(raw, in.inputStream(), false, 0, null, null);
            }
        } catch (IOException | StreamCopy.SourceFailed e) {
            if (watch.cut() == CallWatch.Cut.DEADLINE) {
                return onTransportError(timedOut());
            }
            return onTransportError(e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e));
        }
        ContentCodings codings = codings();
        switch (ResponseDecision.of(verdict, body.bytes(), codings, f.config().maxBodyBytes())) {
            case ResponseDecision.Retry retry -> {
                if (retry.replacedBody() != null) {
                    body = new RequestBody.Buffered(retry.replacedBody(), body.length() < 0);
                    if (!codings.isIdentity()) {
                        call = call.uncoded(); // the replacement is plain: Content-Encoding goes, the length is its own
                        rewrittenPlain = true;
                    }
                }
                report();
                BodyPeek.drain(in, Forwarder.DRAIN_LIMIT);
                return backoff(retry.retry());
            }
            case ResponseDecision.Accept accept -> {
                logGiveUp(verdict);
                if (accept.retriesExhausted()) {
                    plan = new ResponseRelay.Plan(plan.prefix(), plan.rest(), plan.decoded(), plan.status(), retryAfterSeconds(),
                            plan.location());
                }
            }
        }
        if (code >= 300 && code < 400 && in.headers().contains(HeaderNames.LOCATION) && sink.state() instanceof ClientSink.NotCommitted) {
            Optional<String> location = call.redirect(in, f.upstreams());
            if (location.isEmpty()) {
                f.breaker().recordNeutral(admission);
                result = sink.fail(result, LocalFailure.BAD_REDIRECT);
                return false;
            }
            plan = new ResponseRelay.Plan(plan.prefix(), plan.rest(), plan.decoded(), plan.status(), plan.retryAfter(), location.get());
        }
        relay(in, plan);
        return false;
    }

    private void relay(UpstreamResponse in, ResponseRelay.Plan answer) {
        ResponseRelay.Plan plan = UsageTap.tap(answer, in, trace);
        try {
            ExchangeResult so = result;
            Supplier<ExchangeResult> relay = converted != null
                    ? () -> stage.relay(in, sink, method, rawPath, plan, converted, call.displayUrl(), so)
                    : () -> ResponseRelay.relay(in, sink, method, trace, plan, so);
            result = BodyPeek.isEventStream(in) ? f.streams().relay(relay) : relay.get();
        } catch (RelayBroke broke) {
            result = broke.ended(f.stop().cutting(), watch.cut() == CallWatch.Cut.DEADLINE);
        } catch (RuntimeException | Error e) {
            result = result.outcome(shaper.observe.Outcome.ABORTED);
            throw e;
        } finally {
            finalReport();
        }
    }

    /** The verdict of the last attempt for the breaker: success only when the body reached the client. */
    private void finalReport() {
        BreakerVerdict.of(result.outcome() == shaper.observe.Outcome.CLEAN, result.failure(), result.retryAfter(), result.clientAborted())
                .report(f.breaker(), admission);
    }

    private void logGiveUp(RetryDecision d) {
        // -retry 0 gives up on every retryable failure: that is configuration, not a decision worth a line
        if (d instanceof RetryDecision.GiveUp g && g.reason().budgetExhausted() && g.reason() != GiveUpReason.RETRIES_DISABLED) {
            f.log().info(RetryLines.giveUp(f.provider(), method, rawPath, ctx.attempt(), g.reason()));
        }
    }

    /** A discarded attempt's verdict for the breaker. */
    private void report() {
        BreakerVerdict.of(false, result.failure(), result.retryAfter(), false).report(f.breaker(), admission);
    }

    /** The body's codings: the client's, or none for a converted (or already rewritten) body. */
    private ContentCodings codings() {
        return converted != null || rewrittenPlain ? ContentCodings.IDENTITY : clientCodings;
    }

    /** @return true to try again */
    private boolean backoff(RetryDecision.Retry r) {
        watch.close();
        switch (BackoffStep.run(r, ctx.attempt(), f.provider(), method, rawPath, f.config(), f.breaker(), f.log(), trace, sink, client,
                body, codings(), result, f.time())) {
            case BackoffStep.Again again -> {
                admission = again.admission();
                ctx = ctx.next(r);
                return true;
            }
            case BackoffStep.Ended ended -> {
                result = ended.result();
                return false;
            }
        }
    }

    private String retryAfterSeconds() {
        Duration d = result.retryAfter().isPositive() ? result.retryAfter() : f.config().minDelay();
        return Long.toString(Math.max(1, (d.toMillis() + 999) / 1000));
    }
}
