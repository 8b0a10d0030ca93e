package shaper.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.ClientGoneException;
import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.observe.EndReason;
import shaper.observe.ExchangeLog;
import shaper.observe.Outcome;
import shaper.observe.RetryLines;
import shaper.retry.FailureClass;
import shaper.retry.GiveUpReason;
import shaper.retry.HeaderLookup;
import shaper.retry.RetryAfter;
import shaper.retry.RetryConfig;
import shaper.retry.RetryContext;
import shaper.retry.RetryDecision;
import shaper.retry.RetryPolicy;
import shaper.retry.RetryReason;
import shaper.retry.StaleReasoning;
import shaper.retry.UpstreamFailures;
import shaper.sse.InspectorVerdict;

/**
 * Sends one admitted request upstream, retrying what is safe to retry, and relays the answer.
 *
 * <pre>
 * attempt ──transport error / retryable status / early SSE error──▶ breaker failure, backoff
 *    ▲           (keepalives on a committed stream; client gone ends it)     │
 *    └────────────────────── breaker.allow() again ◀──────────────────────────┘
 * attempt ──accepted answer──▶ relay (bytes read for the decision first, as received)
 * </pre>
 *
 * A body is replayable only when it was buffered (up to {@code -retry-max-body-mb}); a larger one
 * is sent once. Errors before any response byte reach the client as {@code 502}; once the response
 * is committed, a failure on either side aborts the client connection (so a truncated body can
 * never look complete) and closes the upstream connection (so the upstream stops generating).
 * Each attempt reports to the circuit breaker; success only once the body reached the client.
 */
final class Forwarder {
    private static final int DRAIN_LIMIT = 4 * 1024;

    private final String provider;
    private final Upstreams upstreams;
    private final ExchangeLog log;
    private final RetryConfig config;
    private final RetryPolicy policy;
    private final CircuitBreaker breaker;
    private final HeaderRewrite rewrite;
    private final CallWatch calls;

    Forwarder(ProviderAssembly assembly, CallWatch calls) {
        this.calls = calls;
        this.provider = assembly.name();
        this.upstreams = assembly.upstreams();
        this.log = assembly.publisher().log();
        this.config = assembly.config().retry();
        this.policy = assembly.retry();
        this.breaker = assembly.breaker();
        this.rewrite = assembly.rewrite();
    }

    /** The per-request state of the attempt loop. */
    private final class Attempts {
        final ServerRequest req;
        final ServerResponse res;
        final String method;
        final String rawPath;
        final Dialect dialect;
        final ClientConnection client;
        final Exchange ex;
        final UpstreamCall call;
        final boolean replayable;
        /** The transcoded route's stage and this exchange's converted request; null for passthrough. */
        final TranscodeStage stage;
        final TranscodeStage.Converted converted;
        RequestBody body;
        EarlyStream early;
        Admission admission;
        RetryContext ctx;
        CallWatch.Call watch;

        Attempts(ServerRequest req, ServerResponse res, String rawPath, RequestBody body, EarlyStream early,
                 ClientConnection client, Exchange ex, Admission admission, TranscodeStage stage, TranscodeStage.Converted converted) {
            this.req = req;
            this.res = res;
            this.method = req.prologue().method().text();
            this.rawPath = rawPath;
            this.dialect = Dialect.of(rawPath);
            this.client = client;
            this.ex = ex;
            this.body = body;
            this.early = early;
            this.admission = admission;
            this.stage = stage;
            this.converted = converted;
            this.call = converted == null
                    ? new UpstreamCall(req, upstreams.forPath(rawPath), rawPath, config.upstreamTimeout(), rewrite)
                    : new UpstreamCall(req, upstreams.forPath(converted.prepared().upstreamPath()), converted.prepared().upstreamPath(),
                            converted.prepared().query(), config.upstreamTimeout(), converted.rewrite());
            // A body buffered only to wait in the queue may exceed -retry-max-body-mb: it is sent once.
            this.replayable = config.enabled() && switch (body) {
                case RequestBody.None none -> true;
                case RequestBody.Buffered buffered -> buffered.bytes().length <= config.maxBodyBytes();
                case RequestBody.Streamed streamed -> false;
            };
            this.ctx = RetryContext.first(config, Instant.now());
        }

        void run() {
            try {
                attempts();
            } finally {
                // every path, an Error included: a watch left registered would later interrupt this
                // thread (serving the connection's next request) or leave its channel non-blocking
                if (watch != null) {
                    watch.close();
                }
            }
        }

        private void attempts() {
            while (true) {
                ex.reachedUpstream = true;
                HttpClientResponse in;
                watch = calls.begin(client, config.upstreamTimeout(), body instanceof RequestBody.Streamed);
                try {
                    ex.trace.attemptStarted();
                    in = call.send(body, watch);
                    ex.trace.upstreamHeaders();
                    watch.relaying();
                } catch (RuntimeException e) {
                    endWatch();
                    if (watch.cut() == CallWatch.Cut.CLIENT_GONE
                            || (e instanceof StreamCopy.SourceFailed && watch.cut() == CallWatch.Cut.NONE)) {
                        clientLeft();
                        return;
                    }
                    if (!onTransportError(watch.cut() == CallWatch.Cut.DEADLINE ? timedOut() : e)) {
                        return;
                    }
                    continue;
                }
                try {
                    if (watch.cut() == CallWatch.Cut.CLIENT_GONE) {
                        // the client left just as the head arrived: closing unread drops the upstream connection
                        clientLeft();
                        return;
                    }
                    if (!onResponse(in)) {
                        return;
                    }
                } finally {
                    endWatch();
                    in.close();
                }
            }
        }

        private void clientLeft() {
            ex.clientAborted = true;
            ex.outcome = Outcome.ABORTED;
            breaker.cancel(admission);
        }

        /** Ends this attempt's call watch (before waiting, logging or answering). */
        private void endWatch() {
            watch.close();
        }

        private RuntimeException timedOut() {
            return new UpstreamTimeout(config.upstreamTimeout());
        }

        /** @return true to try again */
        private boolean onTransportError(RuntimeException e) {
            endWatch();
            log.info("upstream error provider=" + provider + " method=" + method + " path=" + rawPath
                    + " error=" + TransportErrors.describe(e));
            ex.failure = FailureClass.TRANSPORT_ERROR;
            ex.retryAfter = Duration.ZERO;
            breaker.recordFailure(admission, Duration.ZERO);
            RetryDecision d = replayable ? policy.decideTransportError(ctx, Instant.now()) : null;
            if (d instanceof RetryDecision.Retry r) {
                return retryAfter(r);
            }
            logGiveUp(d);
            if (early != null) {
                ex.ended(EndReason.UPSTREAM_UNREACHABLE, Outcome.ABORTED, 200);
                early.fail(dialect, "upstream", "api_error", "upstream unreachable");
            } else {
                ex.ended(EndReason.UPSTREAM_UNREACHABLE, Outcome.FAILED, 502);
                LocalAnswers.text(res, Status.BAD_GATEWAY_502, LocalAnswers.BAD_GATEWAY);
            }
            return false;
        }

        /** @return true to try again */
        private boolean onResponse(HttpClientResponse in) {
            Instant receivedAt = Instant.now();
            int code = in.status().code();
            HeaderLookup headers = name -> in.headers().values(HeaderNames.create(name));
            ex.failure = UpstreamFailures.classify(code, headers, receivedAt);
            ex.overloaded(OverloadSignal.ofStatus(code));
            ex.retryAfter = RetryAfter.remaining(headers, receivedAt, receivedAt).orElse(Duration.ZERO);
            String encoding = in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
            ResponseRelay.Plan plan = ResponseRelay.Plan.asIs(in);
            RetryDecision decision = null;
            try {
                if (replayable && code >= 200 && code < 300 && config.inspectSse() && isEventStream(in) && BodyPeek.decodable(encoding)) {
                    InputStream decoded = BodyPeek.decode(in.inputStream(), encoding);
                    boolean wasDecoded = encoding != null && !encoding.isBlank() && !encoding.equalsIgnoreCase("identity");
                    InspectorVerdict verdict = BodyPeek.inspect(decoded);
                    if (verdict instanceof InspectorVerdict.Retry hidden) {
                        ex.failure = FailureClass.SERVER_ERROR;
                        ex.overloaded(OverloadSignal.EARLY_SSE_ERROR);
                        decision = policy.decideErrorUnder200(ctx, headers, receivedAt, Instant.now());
                        plan = new ResponseRelay.Plan(hidden.buffered(), decoded, wasDecoded, 502, null, null);
                    } else if (verdict instanceof InspectorVerdict.Forward forward) {
                        plan = new ResponseRelay.Plan(forward.buffered(), decoded, wasDecoded, 0, null, null);
                    }
                } else if (replayable && code >= 400) {
                    byte[] raw = BodyPeek.prefix(in.inputStream(), BodyPeek.ERROR_PREFIX);
                    byte[] decodedError = BodyPeek.decodedCopy(raw, encoding);
                    ex.overloaded(OverloadSignal.of(code, decodedError, config.retryStatus()));
                    decision = policy.decide(ctx, code, headers, decodedError, receivedAt, Instant.now());
                    plan = new ResponseRelay.Plan(raw, in.inputStream(), false, 0, null, null);
                }
            } catch (IOException | StreamCopy.SourceFailed e) {
                if (watch.cut() == CallWatch.Cut.DEADLINE) {
                    return onTransportError(timedOut());
                }
                return onTransportError(e instanceof RuntimeException r ? r : new java.io.UncheckedIOException((IOException) e));
            }
            if (decision instanceof RetryDecision.Retry r) {
                if (r.reason() == RetryReason.STALE_REASONING) {
                    Optional<byte[]> stripped = body.bytes() == null ? Optional.empty() : StaleReasoning.stripCarriers(body.bytes());
                    if (stripped.isPresent()) {
                        body = new RequestBody.Buffered(stripped.get(), body.length() < 0);
                        report();
                        drain(in);
                        return retryAfter(r);
                    }
                } else {
                    report();
                    drain(in);
                    return retryAfter(r);
                }
            }
            logGiveUp(decision);
            if (decision instanceof RetryDecision.GiveUp g && g.reason().budgetExhausted()) {
                plan = new ResponseRelay.Plan(plan.prefix(), plan.rest(), plan.decoded(), plan.status(),
                        retryAfterSeconds(), plan.location());
            }
            if (code >= 300 && code < 400 && in.headers().contains(HeaderNames.LOCATION) && early == null) {
                Optional<String> location = redirect(in);
                if (location.isEmpty()) {
                    ex.ended(EndReason.BAD_REDIRECT, Outcome.FAILED, 502);
                    breaker.recordNeutral(admission);
                    LocalAnswers.text(res, Status.BAD_GATEWAY_502, "bad gateway: upstream redirected outside the proxy\n");
                    return false;
                }
                plan = new ResponseRelay.Plan(plan.prefix(), plan.rest(), plan.decoded(), plan.status(), plan.retryAfter(),
                        location.get());
            }
            relay(in, plan);
            return false;
        }

        private void relay(HttpClientResponse in, ResponseRelay.Plan plan) {
            boolean complete = false;
            try {
                if (converted != null) {
                    stage.relay(in, res, method, rawPath, early, ex, plan, converted);
                } else {
                    ResponseRelay.relay(in, res, method, early, dialect, ex, plan);
                }
                complete = true;
            } catch (StreamCopy.SinkFailed clientLeft) {
                if (watch.cut() == CallWatch.Cut.DEADLINE) {
                    ex.failure = FailureClass.TRANSPORT_ERROR;
                    throw new CloseConnectionException("upstream call outlived -upstream-timeout", clientLeft);
                }
                ex.clientAborted = true;
                throw new CloseConnectionException("client left mid-response", clientLeft);
            } catch (StreamCopy.SourceFailed upstreamBroke) {
                // Dropping the client connection is the only honest signal once a status is committed:
                // finishing the response normally would make a truncated body look complete.
                ex.failure = ex.failure.isUpstreamFailure() ? ex.failure : FailureClass.TRANSPORT_ERROR;
                ex.reason = EndReason.UPSTREAM_BROKE_OFF;
                throw new CloseConnectionException("upstream broke off mid-response", upstreamBroke);
            } finally {
                if (!complete) {
                    ex.outcome = Outcome.ABORTED;
                }
                finalReport();
            }
        }

        /** The verdict of the last attempt for the breaker: success only when the body reached the client. */
        private void finalReport() {
            if (ex.outcome == Outcome.CLEAN && ex.failure.isSuccess()) {
                breaker.recordSuccess(admission);
            } else if (ex.failure.isUpstreamFailure()) {
                breaker.recordFailure(admission, ex.retryAfter);
            } else if (ex.clientAborted) {
                breaker.cancel(admission);
            } else {
                breaker.recordNeutral(admission);
            }
        }

        private void logGiveUp(RetryDecision d) {
            // -retry 0 gives up on every retryable failure: that is configuration, not a decision worth a line
            if (d instanceof RetryDecision.GiveUp g && g.reason().budgetExhausted() && g.reason() != GiveUpReason.RETRIES_DISABLED) {
                log.info(RetryLines.giveUp(provider, method, rawPath, ctx.attempt(), g.reason()));
            }
        }

        /** A discarded attempt's verdict for the breaker. */
        private void report() {
            if (ex.failure.isUpstreamFailure()) {
                breaker.recordFailure(admission, ex.retryAfter);
            } else {
                breaker.recordNeutral(admission);
            }
        }

        /** Waits out the backoff and asks the breaker again. @return true to try again */
        private boolean retryAfter(RetryDecision.Retry r) {
            ex.trace.backingOff();
            log.info(RetryLines.retry(provider, method, rawPath, ctx.attempt(), r));
            endWatch();
            // Parsed only when a retry happens: the common path never reads the JSON body.
            if (early == null && config.keepalive().isPositive() && body.bytes() != null && StreamFlag.isTrue(body.bytes())) {
                early = EarlyStream.commit(res, EarlyStream.Origin.RETRY);
                ex.status = 200;
            }
            if (early == null) {
                client.watch(); // the body is in memory (replayable) and nothing is written meanwhile
            }
            try {
                BackoffWait.await(r.delay(), early, dialect, config.keepalive(), client);
            } catch (ClientGoneException e) {
                ex.clientAborted = true;
                ex.outcome = Outcome.ABORTED;
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ex.clientAborted = true;
                ex.outcome = Outcome.ABORTED;
                return false;
            } finally {
                client.unwatch(); // the next attempt's answer is written to this connection
            }
            admission = breaker.allow();
            if (admission instanceof Admission.Rejected) {
                if (early != null) {
                    ex.ended(EndReason.CIRCUIT_OPEN, Outcome.ABORTED, 0);
                    early.fail(dialect, "upstream", "overloaded_error", "circuit open");
                } else {
                    ex.ended(EndReason.CIRCUIT_OPEN, Outcome.FAILED, 503);
                    LocalAnswers.text(res, Status.SERVICE_UNAVAILABLE_503, LocalAnswers.CIRCUIT_OPEN);
                }
                return false;
            }
            ctx = ctx.next(r);
            return true;
        }

        private String retryAfterSeconds() {
            Duration d = ex.retryAfter.isPositive() ? ex.retryAfter : config.minDelay();
            return Long.toString(Math.max(1, (d.toMillis() + 999) / 1000));
        }

        private Optional<String> redirect(HttpClientResponse in) {
            Upstream up = call.upstream();
            URI requested = URI.create(up.base().getScheme() + "://" + up.base().getRawAuthority()
                    + UpstreamUris.pathAndQuery(up.base(), rawPath, req.prologue().query().rawValue()));
            String location = in.headers().first(HeaderNames.LOCATION).orElse("");
            return Redirects.rewrite(location, requested, up.base(), p -> upstreams.forPath(p) == up)
                    .map(proxyPath -> upstreams.mountPrefix() + proxyPath);
        }
    }

    void forward(ServerRequest req, ServerResponse res, String rawPath, RequestBody body, EarlyStream early,
                 ClientConnection client, Exchange ex, Admission admission) {
        forward(req, res, rawPath, body, early, client, ex, admission, null);
    }

    /**
     * Forwards through a transcoded route's stage when {@code stage} is not null: the request is
     * converted once before the first attempt (a local failure is answered then, and the breaker
     * admission is given back unused), and the accepted answer is converted instead of relayed.
     */
    void forward(ServerRequest req, ServerResponse res, String rawPath, RequestBody body, EarlyStream early,
                 ClientConnection client, Exchange ex, Admission admission, TranscodeStage stage) {
        TranscodeStage.Converted converted = null;
        if (stage != null) {
            converted = stage.prepare(req, res, rawPath, body, early, ex);
            if (converted == null) {
                breaker.cancel(admission);
                return;
            }
            body = converted.body();
        }
        new Attempts(req, res, rawPath, body, early, client, ex, admission, stage, converted).run();
    }

    private static boolean isEventStream(HttpClientResponse in) {
        return in.headers().first(HeaderNames.CONTENT_TYPE)
                .map(t -> t.toLowerCase(Locale.ROOT).startsWith("text/event-stream")).orElse(false);
    }

    /** Reads a little of a discarded body so its connection can be reused; closing drops it otherwise. */
    private static void drain(HttpClientResponse in) {
        try {
            InputStream body = in.inputStream();
            byte[] buf = new byte[1024];
            int total = 0;
            int n;
            while (total < DRAIN_LIMIT && (n = body.read(buf)) >= 0) {
                total += n;
            }
        } catch (IOException | RuntimeException e) {
            // discarded anyway
        }
    }

}
