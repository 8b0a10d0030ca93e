package shaper.proxy;

import java.util.random.RandomGenerator;

import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.AdmissionClass;
import shaper.admission.AdmissionConfig;
import shaper.admission.Admitter;
import shaper.admission.ClientGoneException;
import shaper.admission.ProviderLimiters;
import shaper.admission.Slots;
import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.budget.ProviderTokens;
import shaper.budget.TokenBudget;
import shaper.limit.AdmissionException;
import shaper.limit.LimiterUnavailableException;
import shaper.limit.QueueCancelledException;
import shaper.limit.QueueFullException;
import shaper.limit.QueueTimeoutException;
import shaper.observe.BodyPreview;
import shaper.observe.EndReason;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangePublisher;
import shaper.observe.Outcome;
import shaper.observe.RouteKind;
import shaper.retry.RetryConfig;

/**
 * One provider's request path: ask the circuit breaker, classify the route, take its slots
 * (waiting in FIFO order if needed), forward with retries, then give the slots back by the rules
 * of {@link Slots}. Every exit path (local answer, client gone, upstream failure, exception)
 * reaches the {@code finally} that disposes the slots and builds the exchange's one
 * {@link shaper.observe.ExchangeRecord}, handed to the provider's {@link ExchangePublisher}.
 */
public final class ProxyHandler implements Handler {
    private final String provider;
    private final AdmissionConfig config;
    private final RetryConfig retry;
    private final ProviderLimiters limiters;
    private final Admitter admitter;
    private final CircuitBreaker breaker;
    private final SelectorWatch clientWatch;
    private final Forwarder forwarder;
    private final ExchangePublisher publisher;
    private final TranscodeStages transcoding;
    private final ProviderTokens tokens;

    public ProxyHandler(String provider, AdmissionConfig config, RetryConfig retry, ProviderLimiters limiters, Admitter admitter,
                        CircuitBreaker breaker, Upstreams upstreams, ExchangePublisher publisher,
                        RandomGenerator random, HeaderRewrite rewrite, SelectorWatch clientWatch,
                        CallWatch calls) {
        this(provider, config, retry, limiters, admitter, breaker, upstreams, publisher, random, rewrite, clientWatch, calls,
                TranscodeStages.NONE, ProviderTokens.unpaced());
    }

    /** A provider with transcoded routes: each is a stage inside this same request path. */
    public ProxyHandler(String provider, AdmissionConfig config, RetryConfig retry, ProviderLimiters limiters, Admitter admitter,
                        CircuitBreaker breaker, Upstreams upstreams, ExchangePublisher publisher,
                        RandomGenerator random, HeaderRewrite rewrite, SelectorWatch clientWatch, CallWatch calls,
                        TranscodeStages transcoding, ProviderTokens tokens) {
        this.transcoding = transcoding;
        this.tokens = tokens;
        this.clientWatch = clientWatch;
        this.provider = provider;
        this.config = config;
        this.retry = retry;
        this.limiters = limiters;
        this.admitter = admitter;
        this.breaker = breaker;
        ExchangeLog log = publisher.log();
        this.forwarder = new Forwarder(provider, upstreams, log, retry, breaker, random, rewrite, calls, tokens);
        this.publisher = publisher;
    }

    /** The provider's token state (usage, the upstream's rate limits, the budget). */
    public ProviderTokens tokens() {
        return tokens;
    }

    /** Serves the request with its own path: for a provider mounted at the bare root. */
    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        handle(req, res, req.prologue().uriPath().rawPath());
    }

    /**
     * Serves a routed request.
     *
     * @param rawPath the path after the mount prefix was taken off: what routes are classified by,
     *                what is logged and what is sent upstream
     */
    public void handle(ServerRequest req, ServerResponse res, String rawPath) {
        String method = req.prologue().method().text();
        Exchange ex = new Exchange(publisher.journal().begin(method, rawPath, req.prologue().query().rawValue()));
        exchange(req, res, rawPath, method, ex);
        if (ex.clientAborted && !res.isSent()) {
            // Nobody is left to answer: close the connection quietly instead of leaving Helidon to
            // complain that the route sent nothing.
            throw new CloseConnectionException("client left before an answer");
        }
    }

    private void exchange(ServerRequest req, ServerResponse res, String rawPath, String method, Exchange ex) {
        AdmissionClass cls = limiters.classify(method, rawPath, req.headers().contentLength().orElse(-1L));
        ex.trace.classified(cls.limited() ? RouteKind.LIMITED : cls.unlimited() ? RouteKind.UNLIMITED : RouteKind.PASSTHROUGH,
                cls.route());
        Slots slots = null;
        Admission admission = breaker.allow();
        boolean forwarded = false;
        ClientConnection connection = ClientConnection.of(req, clientWatch);
        TokenBudget.Spend spend = null;
        byte[] sentBytes = null;
        try {
            if (admission instanceof Admission.Rejected) {
                ex.trace.queueEnded(false); // never waits: not a queued request in any view
                ex.ended(EndReason.CIRCUIT_OPEN, Outcome.FAILED, 503);
                LocalAnswers.text(res, Status.SERVICE_UNAVAILABLE_503, LocalAnswers.CIRCUIT_OPEN);
                return;
            }
            RequestBody requestBody = RequestBody.of(req);
            if (tokens.budget().isPresent() && !TokenBudget.free(method, rawPath, cls.unlimited())) {
                // the cost is estimated from the body, so it is read (bounded) before the request waits
                requestBody = RequestBody.buffer(requestBody, (int) Math.min(Integer.MAX_VALUE - 16, retry.maxBodyBytes()));
                spend = tokens.budget().get().spend(tokens.estimate(requestBody.bytes(), requestBody.length()));
                ex.trace.waitingFor(spend::waitingFor);
                cls = cls.then(spend.limiter());
            }
            WaitingRequest waiting = new WaitingRequest(req, res, connection, requestBody, config.queueComments());
            slots = admit(cls, waiting, res, ex, rawPath);
            ex.trace.queueEnded(!cls.chain().isEmpty());
            connection.unwatch();
            if (slots == null) {
                return;
            }
            RequestBody body = replayable(waiting);
            byte[] bytes = body.bytes();
            sentBytes = bytes;
            if (bytes != null) {
                ex.trace.requestBody(BodyPreview.of(bytes, bytes.length));
            }
            if (!connection.isOpen()) {
                ex.clientAborted = true;
                return;
            }
            forwarded = true;
            forwarder.forward(req, res, rawPath, body, waiting.comments(), connection, ex, admission, transcoding.match(method, rawPath));
        } catch (StreamCopy.SourceFailed clientLeft) {
            ex.clientAborted = true;
            ex.outcome = Outcome.ABORTED;
        } catch (RuntimeException | Error e) {
            if (!ex.reachedUpstream) {
                ex.localError = true;
            }
            throw e;
        } finally {
            connection.unwatch(); // before anything else touches the connection
            if (!forwarded) {
                breaker.cancel(admission);
            }
            // the budget is settled from the actual usage before the slots go back (a release settles as "nothing used")
            ex.trace.usage(tokens.finish(ex.trace.usageScanner(), ex.status, sentBytes, spend));
            if (slots != null) {
                slots.dispose(ex.end(), breaker::penalty);
            }
            EndReason why = ex.reason();
            publisher.publish(ex.trace.finish(ex.status, ex.outcome, why, ex.provenance(why),
                    JournalHeaders.of(req.headers()), res.isSent() || ex.status > 0 ? JournalHeaders.of(res.headers()) : java.util.List.of()));
        }
    }

    /** The body to send: buffered (so it can be replayed) when retries are on and it fits, else as it is. */
    private RequestBody replayable(WaitingRequest waiting) {
        RequestBody body = waiting.body();
        if (retry.enabled() && body instanceof RequestBody.Streamed) {
            body = RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, retry.maxBodyBytes()));
        }
        return body;
    }

    /** Takes the slots, or answers locally and returns null. */
    private Slots admit(AdmissionClass cls, WaitingRequest waiting, ServerResponse res, Exchange ex, String rawPath) {
        if (cls.chain().isEmpty()) {
            return admitter.unlimited(cls);
        }
        try {
            return admitter.admit(cls, waiting);
        } catch (QueueFullException e) {
            if (waiting.comments() != null) {
                fail(waiting, ex, EndReason.QUEUE_FULL, "queue full", "rate_limit_error", "proxy queue is full");
            } else {
                ex.ended(EndReason.QUEUE_FULL, Outcome.FAILED, 429);
                LocalAnswers.queueFull(res, e.depth(), e.retryAfter().orElse(config.releaseCooldown()));
            }
        } catch (QueueTimeoutException e) {
            if (waiting.comments() != null) {
                fail(waiting, ex, EndReason.QUEUE_TIMEOUT, "timeout", "timeout_error", "queue timeout");
            } else {
                ex.ended(EndReason.QUEUE_TIMEOUT, Outcome.FAILED, 504);
                LocalAnswers.text(res, Status.GATEWAY_TIMEOUT_504, LocalAnswers.QUEUE_TIMEOUT);
            }
        } catch (LimiterUnavailableException e) {
            if (waiting.comments() != null) {
                fail(waiting, ex, EndReason.LIMITER_UNAVAILABLE, "unavailable", "overloaded_error", LocalAnswers.LIMITER_UNAVAILABLE);
            } else {
                ex.ended(EndReason.LIMITER_UNAVAILABLE, Outcome.FAILED, 503);
                LocalAnswers.limiterUnavailable(res, Dialect.of(rawPath));
            }
        } catch (QueueCancelledException | ClientGoneException e) {
            ex.clientAborted = true;
            ex.status = waiting.comments() != null ? 200 : 0;
            ex.outcome = Outcome.ABORTED;
        } catch (AdmissionException e) {
            throw new IllegalStateException("unexpected admission outcome", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ex.clientAborted = true;
            ex.outcome = Outcome.ABORTED;
        }
        return null;
    }

    private static void fail(WaitingRequest waiting, Exchange ex, EndReason why, String reason, String type, String message) {
        ex.ended(why, Outcome.ABORTED, 200);
        waiting.comments().fail(Dialect.OTHER, reason, type, message);
    }
}
