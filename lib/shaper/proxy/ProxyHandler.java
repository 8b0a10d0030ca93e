package shaper.proxy;

import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.AdmissionChain;
import shaper.admission.AdmissionClass;
import shaper.admission.Refusal;
import shaper.admission.Verdict;
import shaper.breaker.CircuitBreaker;
import shaper.observe.BodyPreview;
import shaper.observe.EndReason;
import shaper.observe.ExchangePublisher;
import shaper.observe.Outcome;
import shaper.observe.RouteKind;
import shaper.retry.RetryConfig;

/**
 * One provider's request path: classify the route, pass the provider's admission chain (circuit
 * breaker, then its slots, waiting in its priority class's FIFO lane if needed), forward with retries, then give the
 * slots back by the rules of {@link shaper.admission.Slots}. Every exit path (local answer, client gone, upstream failure, exception)
 * reaches the {@code finally} that disposes the slots and builds the exchange's one
 * {@link shaper.observe.ExchangeRecord}, handed to the provider's {@link ExchangePublisher}.
 */
public final class ProxyHandler implements Handler {
    private final ProviderAssembly provider;
    private final AdmissionChain admission;
    private final CircuitBreaker breaker;
    private final SelectorWatch clientWatch;
    private final Forwarder forwarder;
    private final ExchangePublisher publisher;

    /**
     * @param clientWatch the server's watch of idle client connections (a queued client that leaves)
     * @param calls       the server's watch of upstream calls (deadline, client gone)
     */
    public ProxyHandler(ProviderAssembly provider, SelectorWatch clientWatch, CallWatch calls) {
        this.provider = provider;
        this.admission = provider.admission();
        this.breaker = provider.breaker();
        this.clientWatch = clientWatch;
        this.forwarder = new Forwarder(provider, calls);
        this.publisher = provider.publisher();
    }

    /** The provider this handler serves. */
    public ProviderAssembly provider() {
        return provider;
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
        AdmissionClass cls = admission.classify(method, rawPath, req.headers().contentLength().orElse(-1L));
        ex.trace.classified(cls.limited() ? RouteKind.LIMITED : cls.unlimited() ? RouteKind.UNLIMITED : RouteKind.PASSTHROUGH,
                cls.route());
        Verdict.Admitted admitted = null;
        boolean forwarded = false;
        ClientConnection connection = ClientConnection.of(req, clientWatch);
        try {
            PriorityRequest.Classified lane = PriorityRequest.classify(provider.priority(), req, rawPath, RequestBody.of(req),
                    cls.hasLimiters());
            if (provider.priority().enabled()) {
                ex.trace.priorityClass(lane.queueClass().name());
            }
            WaitingRequest waiting = new WaitingRequest(req, res, connection, lane.body(), provider.config().admission().queueComments());
            Verdict verdict = admission.admit(cls, lane.queueClass(), waiting);
            // a circuit rejection never waits: not a queued request in any view
            ex.trace.queueEnded(cls.hasLimiters() && !(verdict instanceof Refusal.CircuitOpen));
            connection.unwatch();
            if (!(verdict instanceof Verdict.Admitted a)) {
                refused((Refusal) verdict, waiting, res, ex, rawPath);
                return;
            }
            admitted = a;
            RequestBody body = replayable(waiting);
            byte[] bytes = body.bytes();
            if (bytes != null) {
                ex.trace.requestBody(BodyPreview.of(bytes, bytes.length));
            }
            if (!connection.isOpen()) {
                ex.clientAborted = true;
                return;
            }
            forwarded = true;
            forwarder.forward(req, res, rawPath, body, waiting.comments(), connection, ex, a.breaker(),
                    provider.transcoding().match(method, rawPath));
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
            if (admitted != null) {
                if (!forwarded) {
                    breaker.cancel(admitted.breaker());
                }
                admitted.slots().report(ex.loadSample(req.headers().contentLength().orElse(-1L)));
                admitted.slots().dispose(ex.end(), breaker::penalty);
            }
            EndReason why = ex.reason();
            publisher.publish(ex.trace.finish(ex.status, ex.outcome, why, ex.provenance(why),
                    JournalHeaders.of(req.headers()), res.isSent() || ex.status > 0 ? JournalHeaders.of(res.headers()) : java.util.List.of()));
        }
    }

    /** The body to send: buffered (so it can be replayed) when retries are on and it fits, else as it is. */
    private RequestBody replayable(WaitingRequest waiting) {
        RequestBody body = waiting.body();
        RetryConfig retry = provider.config().retry();
        if (retry.enabled() && body instanceof RequestBody.Streamed) {
            body = RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, retry.maxBodyBytes()));
        }
        return body;
    }

    /** Answers a refused request locally (on the committed comment stream when there is one). */
    private void refused(Refusal refusal, WaitingRequest waiting, ServerResponse res, Exchange ex, String rawPath) {
        EarlyStream comments = waiting.comments();
        switch (refusal) {
            case Refusal.CircuitOpen open -> {
                ex.ended(EndReason.CIRCUIT_OPEN, Outcome.FAILED, 503);
                LocalAnswers.text(res, Status.SERVICE_UNAVAILABLE_503, LocalAnswers.CIRCUIT_OPEN);
            }
            case Refusal.QueueFull full when comments != null ->
                    fail(waiting, ex, EndReason.QUEUE_FULL, "queue full", "rate_limit_error", "proxy queue is full");
            case Refusal.QueueFull full -> {
                ex.ended(EndReason.QUEUE_FULL, Outcome.FAILED, 429);
                LocalAnswers.queueFull(res, full.depth(), provider.config().admission().releaseCooldown());
            }
            case Refusal.QueueTimeout timeout when comments != null ->
                    fail(waiting, ex, EndReason.QUEUE_TIMEOUT, "timeout", "timeout_error", "queue timeout");
            case Refusal.QueueTimeout timeout -> {
                ex.ended(EndReason.QUEUE_TIMEOUT, Outcome.FAILED, 504);
                LocalAnswers.text(res, Status.GATEWAY_TIMEOUT_504, LocalAnswers.QUEUE_TIMEOUT);
            }
            case Refusal.LimiterUnavailable unavailable when comments != null ->
                    fail(waiting, ex, EndReason.LIMITER_UNAVAILABLE, "unavailable", "overloaded_error", LocalAnswers.LIMITER_UNAVAILABLE);
            case Refusal.LimiterUnavailable unavailable -> {
                ex.ended(EndReason.LIMITER_UNAVAILABLE, Outcome.FAILED, 503);
                LocalAnswers.limiterUnavailable(res, Dialect.of(rawPath));
            }
            case Refusal.ClientGone gone -> {
                ex.clientAborted = true;
                ex.status = comments != null ? 200 : 0;
                ex.outcome = Outcome.ABORTED;
            }
        }
    }

    private static void fail(WaitingRequest waiting, Exchange ex, EndReason why, String reason, String type, String message) {
        ex.ended(why, Outcome.ABORTED, 200);
        waiting.comments().fail(Dialect.OTHER, reason, type, message);
    }
}
