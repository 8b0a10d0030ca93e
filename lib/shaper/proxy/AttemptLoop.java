package shaper.proxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

import io.helidon.http.HeaderNames;
import shaper.observe.Outcome;
import shaper.observe.RetryLines;
import shaper.proxy.client.UpstreamResponse;
import shaper.proxy.watch.CallWatch;
import shaper.retry.FailureClass;
import shaper.retry.GiveUpReason;
import shaper.retry.HeaderLookup;
import shaper.retry.RetryConfig;
import shaper.retry.RetryDecision;
import shaper.retry.UpstreamAnswer;
import shaper.routing.FallbackWhy;

/**
 * One admitted request's attempts, on its own thread (entered by {@link AttemptStage}). Send, judge the answer
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

    private final Carriage c;
    private final Target target;
    private final ProviderAssembly provider;
    private final TranscodeStage.Converted converted;
    private final TranscodeStage stage;
    private Turn turn;
    private ExchangeResult result = ExchangeResult.START;

    /** @param converted the exchange's converted request on a transcoded route, null for passthrough */
    AttemptLoop(Carriage c, Target target, TranscodeStage.Converted converted, Turn first) {
        this.c = c;
        this.target = target;
        this.provider = target.provider();
        this.stage = target.transcoding();
        this.converted = converted;
        this.turn = first;
    }

    /** Runs the attempts; an unexpected failure comes out as {@link StageFailed} carrying the exchange so far. */
    ExchangeResult run() {
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
            in = turn.call().send(turn.body(), watch, c.trace().attemptStarted());
        } catch (RuntimeException e) {
            watch.close();
            if (watch.cut() == CallWatch.Cut.CLIENT_GONE || (e instanceof StreamCopy.SourceFailed && watch.cut() == CallWatch.Cut.NONE)) {
                return clientLeft();
            }
            return onTransportError(watch.cut() == CallWatch.Cut.DEADLINE ? timedOut() : e);
        }
        try { // from here on the answer is closed on every path: it holds the upstream connection
            c.trace().upstreamRequest(turn.call().sentHeaders());
            c.trace().upstreamHeaders(in.status().code());
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
        String cause = TransportErrors.forClient(e);
        turn.call().upstream().unreachable(cause);
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
        if (target.mayMove()) {
            result = result.moved(FallbackWhy.TRANSPORT); // nothing was answered: the route's next target takes it
            return false;
        }
        result = c.sink().fail(result, LocalFailure.unreachable(cause, turn.call().upstream().display()));
        return false;
    }

    /** @return true to try again */
    private boolean onResponse(UpstreamResponse in) {
        Instant receivedAt = now();
        turn.call().upstream().answered();
        int code = in.status().code();
        HeaderLookup headers = UpstreamHeaders.of(in.headers());
        provider.tokens().onUpstreamHeaders(headers, code, receivedAt); // every answer, errors and discarded attempts included
        AnswerJudge.Replay replay = replay();
        BodyPeek.Read read;
        try {
            read = BodyPeek.read(in, replay.possible(), config().inspectSse());
        } catch (IOException | StreamCopy.SourceFailed e) {
            if (turn.watch().cut() == CallWatch.Cut.DEADLINE) {
                return onTransportError(timedOut());
            }
            return onTransportError(e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e));
        }
        ResponseRelay.Plan plan = read.plan();
        AnswerJudge.Judgement judged = AnswerJudge.judge(new AnswerJudge.Answer(new UpstreamAnswer(code, headers, read.errorPrefix(), receivedAt),
                read.earlySseError()), replay, now());
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
        FallbackWhy why = target.mayMove() ? FallbackWhy.ofStatus(code, judged.failure() == FailureClass.TEMPORARY_BAN) : null;
        if (why != null) {
            // the answer is not the client's: its verdict goes to the breaker, its body is dropped, the next target takes over
            AnswerJudge.BreakerVerdict.of(false, result.failure(), result.retryAfter(), false).report(provider.breaker(), turn.admission());
            BodyPeek.drain(in, DRAIN_LIMIT);
            result = result.moved(why);
            return false;
        }
        if (code >= 300 && code < 400 && in.headers().contains(HeaderNames.LOCATION)) {
            Optional<String> location = turn.call().redirect(in, provider.upstreams());
            if (location.isEmpty()) {
                Optional<ExchangeResult> refused = c.sink().failWhileOpen(result, LocalFailure.badRedirect(turn.call().upstream().display()));
                if (refused.isPresent()) {
                    provider.breaker().recordNeutral(turn.admission());
                    result = refused.get();
                    return false;
                }
            } else {
                plan = plan.withLocation(location.get());
            }
        }
        // no retry can hide an early error, so none was read ahead: the relay reads it as it passes
        RelayedEarlyError early = !replay.possible() && config().inspectSse() ? RelayedEarlyError.of(in) : null;
        relay(in, early == null ? plan : plan.watchedBy(early::feed), early);
        return false;
    }

    private void relay(UpstreamResponse in, ResponseRelay.Plan answer, RelayedEarlyError early) {
        ResponseRelay.Plan plan = answer.tapped(in, c.trace());
        try {
            ExchangeResult so = result;
            Supplier<ExchangeResult> relay = converted != null
                    ? () -> c.trace().transcoding("response", () -> stage.relay(c, in, plan, converted, so))
                    : () -> c.sink().deliver(new ResponseRelay(in, c, plan, so));
            result = BodyPeek.isEventStream(in) ? c.server().streams().relay(relay) : relay.get();
        } catch (RelayBroke broke) {
            result = broke.ended(c.server().stop().cutting(), turn.watch().cut() == CallWatch.Cut.DEADLINE);
        } catch (RuntimeException | Error e) {
            result = result.outcome(Outcome.ABORTED);
            throw e;
        } finally {
            if (early != null && early.seen()) {
                result = result.overloaded(AnswerJudge.EARLY_SSE_ERROR);
            }
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
