package shaper.proxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

import io.helidon.http.HeaderNames;
import shaper.breaker.Admission;
import shaper.codec.ContentCodings;
import shaper.observe.BodyPreview;
import shaper.observe.Outcome;
import shaper.observe.RetryLines;
import shaper.proxy.client.UpstreamResponse;
import shaper.proxy.watch.CallWatch;
import shaper.retry.FailureClass;
import shaper.retry.GiveUpReason;
import shaper.retry.HeaderLookup;
import shaper.retry.RetryConfig;
import shaper.retry.RetryContext;
import shaper.retry.RetryDecision;
import shaper.retry.UpstreamAnswer;

/**
 * The attempts stage: one admitted request's attempts, on its own thread. Send, judge the answer
 * ({@link AnswerJudge}), wait between attempts ({@link BackoffStep}), relay the accepted answer
 * ({@link ResponseRelay}, or the transcoded route's stage).
 *
 * <pre>
 * attempt ──transport error / retryable status / early SSE error──▶ breaker failure, BackoffStep
 *    ▲           (keepalives on a committed stream; client gone ends it)     │
 *    └────────────────────── breaker.allow() again ◀──────────────────────────┘
 * attempt ──accepted answer──▶ relay (bytes read for the decision first, as received)
 * </pre>
 *
 * A body is replayable only when it was buffered (up to {@code -retry-max-body-mb}); a larger one is
 * sent once. Errors before any response byte reach the client through the {@link ClientSink}
 * ({@code 502}); once the response is committed, a failure on either side cuts the client
 * connection (so a truncated body can never look complete) and closes the upstream connection (so
 * the upstream stops generating). Each attempt reports to the circuit breaker; success only once the
 * body reached the client. The exchange so far is one immutable {@link ExchangeResult} and the
 * attempt's own values one {@link Turn}, each replaced by every step.
 */
final class AttemptLoop {
    static final int DRAIN_LIMIT = 4 * 1024;

    /**
     * One attempt's values, replaced as a whole by each turn.
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

    private final Carriage c;
    private final ProviderAssembly provider;
    private final TranscodeStage.Converted converted;
    private final TranscodeStage stage;
    private Turn turn;
    private ExchangeResult result = ExchangeResult.START;

    private AttemptLoop(Carriage c, Target target, TranscodeStage.Converted converted, Turn first) {
        this.c = c;
        this.provider = target.provider();
        this.stage = target.transcoding();
        this.converted = converted;
        this.turn = first;
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
        RequestBody body = replayable(admitted.body(), provider.config().retry());
        byte[] bytes = body.bytes();
        settlement.sent(bytes, c.exchange().coding());
        if (bytes != null) {
            c.trace().requestBody(BodyPreview.of(bytes, bytes.length));
        }
        if (!c.client().isOpen()) {
            return ExchangeResult.START.clientLeft();
        }
        settlement.forwarded();
        Exchange ex = c.exchange();
        Admission admission = admitted.grant().breaker();
        Duration timeout = provider.config().retry().upstreamTimeout();
        if (target.transcoding() == null) {
            UpstreamCall call = new UpstreamCall(ex, provider.upstreams().destination(ex.path(), ex.query()), timeout, provider.rewrite());
            return new AttemptLoop(c, target, null, new Turn(call, body, ex.coding().codings(), admission, first(provider), null)).run();
        }
        return switch (target.transcoding().prepare(c, body)) {
            case TranscodeStage.Answered answered -> {
                provider.breaker().cancel(admission);
                yield answered.result();
            }
            case TranscodeStage.Converted conv -> {
                UpstreamCall call = new UpstreamCall(ex, provider.upstreams().destination(conv.prepared().upstreamPath(),
                        conv.prepared().query()), timeout, conv.rewrite());
                Turn turn = new Turn(call, conv.body(), ContentCodings.IDENTITY, admission, first(provider), null);
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

    private ExchangeResult run() {
        try {
            while (attempt()) {
                // the next attempt
            }
            return result;
        } catch (RuntimeException | Error e) {
            throw new StageFailed(result.outcome(Outcome.ABORTED), e);
        } finally {
            // every path, an Error included: a watch left registered would later interrupt this
            // thread (serving the connection's next request) or leave its channel non-blocking
            if (turn.watch() != null) {
                turn.watch().close();
            }
        }
    }

    private RetryConfig config() {
        return provider.config().retry();
    }

    private Instant now() {
        return provider.time().wallClock();
    }

    private AnswerJudge.Replay replay() {
        return new AnswerJudge.Replay(provider.retry(), turn.retry(), turn.body(), turn.codings());
    }

    /** @return true to try again */
    private boolean attempt() {
        result = result.reached();
        CallWatch.Call watch = c.server().calls().begin(c.client(), config().upstreamTimeout(), turn.body() instanceof RequestBody.Streamed);
        turn = turn.watched(watch);
        UpstreamResponse in;
        try {
            c.trace().attemptStarted();
            in = turn.call().send(turn.body(), watch);
        } catch (RuntimeException e) {
            watch.close();
            if (watch.cut() == CallWatch.Cut.CLIENT_GONE || (e instanceof StreamCopy.SourceFailed && watch.cut() == CallWatch.Cut.NONE)) {
                return clientLeft();
            }
            return onTransportError(watch.cut() == CallWatch.Cut.DEADLINE ? timedOut() : e);
        }
        try { // from here on the answer is closed on every path: it holds the upstream connection
            c.trace().upstreamRequest(turn.call().sentHeaders());
            c.trace().upstreamHeaders();
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
        provider.breaker().cancel(turn.admission());
        return false;
    }

    private RuntimeException timedOut() {
        return new TransportErrors.UpstreamTimeout(config().upstreamTimeout());
    }

    /** @return true to try again */
    private boolean onTransportError(RuntimeException e) {
        turn.watch().close();
        Exchange ex = c.exchange();
        provider.publisher().log().info("upstream error provider=" + provider.name() + " method=" + ex.method() + " path=" + ex.path()
                + " error=" + TransportErrors.describe(e));
        result = result.judged(FailureClass.TRANSPORT_ERROR, Duration.ZERO);
        provider.breaker().recordFailure(turn.admission(), Duration.ZERO);
        RetryDecision d = replay().possible() ? provider.retry().decideTransportError(turn.retry(), now()) : null;
        if (d instanceof RetryDecision.Retry r) {
            return backoff(r);
        }
        if (d instanceof RetryDecision.GiveUp g) {
            logGiveUp(g.reason());
        }
        result = c.sink().fail(result, LocalFailure.UPSTREAM_UNREACHABLE);
        return false;
    }

    /** @return true to try again */
    private boolean onResponse(UpstreamResponse in) {
        Instant receivedAt = now();
        int code = in.status().code();
        HeaderLookup headers = UpstreamHeaders.of(in.headers());
        provider.tokens().onUpstreamHeaders(headers, code, receivedAt); // every answer, errors and discarded attempts included
        String encoding = in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
        ResponseRelay.Plan plan = ResponseRelay.Plan.asIs(in);
        byte[] errorPrefix = null;
        boolean earlySseError = false;
        boolean replayable = replay().possible();
        try {
            if (replayable && code >= 200 && code < 300 && config().inspectSse() && BodyPeek.SsePeek.applies(in, encoding)) {
                BodyPeek.SsePeek peek = BodyPeek.SsePeek.of(in, encoding);
                plan = peek.plan();
                earlySseError = peek.hiddenError();
            } else if (replayable && code >= 400) {
                byte[] raw = BodyPeek.prefix(in.inputStream(), BodyPeek.ERROR_PREFIX);
                errorPrefix = BodyPeek.decodedCopy(raw, encoding);
                plan = ResponseRelay.Plan.read(raw, in.inputStream(), false, 0);
            }
        } catch (IOException | StreamCopy.SourceFailed e) {
            if (turn.watch().cut() == CallWatch.Cut.DEADLINE) {
                return onTransportError(timedOut());
            }
            return onTransportError(e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e));
        }
        AnswerJudge.Judgement judged = AnswerJudge.judge(new AnswerJudge.Answer(new UpstreamAnswer(code, headers, errorPrefix, receivedAt),
                earlySseError), replay(), now());
        result = result.judged(judged.failure(), judged.retryAfter()).overloaded(judged.overload());
        switch (judged.decision()) {
            case AnswerJudge.Retry retry -> {
                if (retry.replacedBody() != null) {
                    turn = turn.rewritten(retry.replacedBody());
                }
                judged.discarded().report(provider.breaker(), turn.admission());
                BodyPeek.drain(in, DRAIN_LIMIT);
                return backoff(retry.retry());
            }
            case AnswerJudge.GiveUp giveUp -> {
                logGiveUp(giveUp.reason());
                if (giveUp.retriesExhausted()) {
                    plan = plan.withRetryAfter(retryAfterSeconds());
                }
            }
            case AnswerJudge.Accept accept -> {
                // relayed as it is
            }
        }
        if (code >= 300 && code < 400 && in.headers().contains(HeaderNames.LOCATION)) {
            Optional<String> location = turn.call().redirect(in, provider.upstreams());
            if (location.isEmpty()) {
                Optional<ExchangeResult> refused = c.sink().failWhileOpen(result, LocalFailure.BAD_REDIRECT);
                if (refused.isPresent()) {
                    provider.breaker().recordNeutral(turn.admission());
                    result = refused.get();
                    return false;
                }
            } else {
                plan = plan.withLocation(location.get());
            }
        }
        relay(in, plan);
        return false;
    }

    private void relay(UpstreamResponse in, ResponseRelay.Plan answer) {
        ResponseRelay.Plan plan = answer.tapped(in, c.trace());
        try {
            ExchangeResult so = result;
            Supplier<ExchangeResult> relay = converted != null
                    ? () -> stage.relay(c, in, plan, converted, so)
                    : () -> c.sink().deliver(new ResponseRelay(in, c, plan, so));
            result = BodyPeek.isEventStream(in) ? c.server().streams().relay(relay) : relay.get();
        } catch (RelayBroke broke) {
            result = broke.ended(c.server().stop().cutting(), turn.watch().cut() == CallWatch.Cut.DEADLINE);
        } catch (RuntimeException | Error e) {
            result = result.outcome(Outcome.ABORTED);
            throw e;
        } finally {
            // the verdict of the last attempt for the breaker: success only when the body reached the client
            AnswerJudge.BreakerVerdict.of(result.outcome() == Outcome.CLEAN, result.failure(), result.retryAfter(), result.clientAborted())
                    .report(provider.breaker(), turn.admission());
        }
    }

    private void logGiveUp(GiveUpReason reason) {
        // -retry 0 gives up on every retryable failure: that is configuration, not a decision worth a line
        if (reason.budgetExhausted() && reason != GiveUpReason.RETRIES_DISABLED) {
            Exchange ex = c.exchange();
            provider.publisher().log().info(RetryLines.giveUp(provider.name(), ex.method(), ex.path(), turn.retry().attempt(), reason));
        }
    }

    /** @return true to try again */
    private boolean backoff(RetryDecision.Retry r) {
        turn.watch().close();
        switch (BackoffStep.run(c, provider, r, turn, result)) {
            case BackoffStep.Again again -> {
                turn = turn.next(again.admission(), r);
                return true;
            }
            case BackoffStep.Ended ended -> {
                result = ended.result();
                return false;
            }
        }
    }

    private String retryAfterSeconds() {
        Duration d = result.retryAfter().isPositive() ? result.retryAfter() : config().minDelay();
        return Long.toString(Math.max(1, (d.toMillis() + 999) / 1000));
    }
}
