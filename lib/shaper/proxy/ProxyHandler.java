package shaper.proxy;

import java.util.List;

import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.AdmissionChain;
import shaper.admission.AdmissionClass;
import shaper.admission.Refusal;
import shaper.admission.Verdict;
import shaper.breaker.CircuitBreaker;
import shaper.budget.ProviderTokens;
import shaper.budget.TokenBudget;
import shaper.observe.BodyPreview;
import shaper.observe.ExchangeTrace;
import shaper.observe.RouteKind;
import shaper.retry.RetryConfig;
import shaper.proxy.watch.CallWatch;
import shaper.proxy.watch.ClientConnection;
import shaper.proxy.watch.SelectorWatch;

/**
 * One provider's request path: classify the route, pass the provider's admission chain (circuit
 * breaker, then its slots, waiting in its priority class's FIFO lane if needed), forward with retries, then give the
 * slots back by the rules of {@link shaper.admission.Slots}. Every exit path (local answer, client gone, upstream failure, exception)
 * reaches the {@code finally} that disposes the slots and builds the exchange's one
 * {@link shaper.observe.ExchangeRecord}, handed to the provider's {@link shaper.observe.ExchangePublisher}.
 */
public final class ProxyHandler implements Handler {
    private final SelectorWatch clientWatch;
    private final Forwarder forwarder;

    /**
     * @param clientWatch the server's watch of idle client connections (a queued client that leaves)
     * @param calls       the server's watch of upstream calls (deadline, client gone)
     * @param stop        set when a graceful stop cuts what still runs
     * @param streams     the server's platform threads for relaying event streams
     */
    public ProxyHandler(ProviderAssembly provider, SelectorWatch clientWatch, CallWatch calls, StopCut stop, StreamThreads streams) {
        this.clientWatch = clientWatch;
        this.forwarder = new Forwarder(provider, calls, stop, streams);
    }

    /** The provider this handler serves. */
    public ProviderAssembly provider() {
        return forwarder.assembly();
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
        ExchangeTrace trace = provider().publisher().journal().begin(method, rawPath, req.prologue().query().rawValue());
        ExchangeResult result = exchange(req, res, rawPath, method, trace);
        if (result.cut() != null) {
            // a committed answer that cannot be finished honestly: only a dropped connection says so
            throw new CloseConnectionException(result.cut());
        }
        if (result.clientAborted() && !res.isSent()) {
            // Nobody is left to answer: close the connection quietly instead of leaving Helidon to
            // complain that the route sent nothing.
            throw new CloseConnectionException("client left before an answer");
        }
    }

    private ExchangeResult exchange(ServerRequest req, ServerResponse res, String rawPath, String method, ExchangeTrace trace) {
        ProviderAssembly provider = provider();
        AdmissionChain admission = provider.admission();
        CircuitBreaker breaker = provider.breaker();
        RequestCoding coding = RequestCoding.of(req);
        GateEstimate estimate = GateEstimate.of(req, RequestBody.of(req), admission.largeRequestBytes(), coding.codings());
        AdmissionClass cls = admission.classify(method, rawPath, estimate.length());
        trace.classified(cls.limited() ? RouteKind.LIMITED : cls.unlimited() ? RouteKind.UNLIMITED : RouteKind.PASSTHROUGH, cls.route());
        ExchangeResult result = ExchangeResult.START;
        Verdict.Admitted admitted = null;
        boolean forwarded = false;
        RuntimeException failure = null;
        ClientConnection connection = ClientConnection.of(req, clientWatch);
        ProviderTokens tokens = provider.tokens();
        TokenBudget.Spend spend = null;
        byte[] sentBytes = null;
        try {
            PriorityRequest.Classified lane = PriorityRequest.classify(provider.priority(), req, rawPath, estimate.body(),
                    cls.hasLimiters());
            if (provider.priority().enabled()) {
                trace.priorityClass(lane.queueClass().name());
            }
            RequestBody requestBody = lane.body();
            if (tokens.budget().isPresent() && !TokenBudget.free(method, rawPath, cls.unlimited())) {
                // the cost is estimated from the body, so it is read (bounded) before the request waits
                requestBody = RequestBody.buffer(requestBody, (int) Math.min(Integer.MAX_VALUE - 16, provider.config().retry().maxBodyBytes()));
                spend = tokens.budget().get().spend(tokens.estimate(BudgetBody.decoded(coding, requestBody), requestBody.length()));
                trace.waitingFor(spend::waitingFor);
                cls = cls.withBudget(spend.limiter());
            }
            WaitingRequest waiting = new WaitingRequest(req, res, connection, coding, requestBody, provider.config().admission().queueComments());
            Verdict verdict = admission.admit(cls, lane.queueClass(), waiting);
            // a circuit rejection never waits: not a queued request in any view
            trace.queueEnded(cls.hasLimiters() && !(verdict instanceof Refusal.CircuitOpen));
            connection.unwatch();
            ClientSink sink = new ClientSink(res, Dialect.of(rawPath), waiting.comments());
            if (verdict instanceof Refusal refusal) {
                result = refused(refusal, sink, result);
            } else {
                admitted = (Verdict.Admitted) verdict;
                RequestBody body = replayable(waiting);
                byte[] bytes = body.bytes();
                sentBytes = bytes;
                if (bytes != null) {
                    trace.requestBody(BodyPreview.of(bytes, bytes.length));
                }
                if (!connection.isOpen()) {
                    result = result.clientLeft();
                } else {
                    forwarded = true;
                    result = forwarder.forward(req, sink, rawPath, body, connection, trace, admitted.breaker(),
                            provider.transcoding().match(method, rawPath), result);
                }
            }
        } catch (StageFailed e) {
            result = e.result();
            failure = e;
        } catch (StreamCopy.SourceFailed clientLeft) {
            result = result.clientLeft();
        } catch (RuntimeException | Error e) {
            if (!result.reachedUpstream()) {
                result = result.failedLocally();
            }
            failure = new StageFailed(result, e);
        } finally {
            connection.unwatch(); // before anything else touches the connection
            // the budget is settled from the actual usage before the slots go back (a release settles as "nothing used")
            // the model and the input estimate are read from the body as the model reads it, not as coded
            byte[] sent = sentBytes;
            try {
                trace.usage(tokens.finish(trace.usageScanner(), result.status(), () -> BudgetBody.decodedOrNull(coding, sent), spend));
            } finally { // the probe and the slots go back whatever settling the budget did
                if (admitted != null) {
                    if (!forwarded) {
                        breaker.cancel(admitted.breaker());
                    }
                    // the load sample goes to an adaptive limit before the slots are given back
                    admitted.slots().report(result.loadSample(trace.upstreamFirstByteNanos(), req.headers().contentLength().orElse(-1L)));
                    admitted.slots().dispose(result.slots(), breaker::penalty);
                }
            }
            provider.publisher().publish(result.record(trace, JournalHeaders.of(req.headers()),
                    res.isSent() || result.status() > 0 ? JournalHeaders.of(res.headers()) : List.of()));
        }
        if (failure instanceof StageFailed f) {
            throw f.rethrow();
        }
        return result;
    }

    /** The body to send: buffered (so it can be replayed) when retries are on and it fits, else as it is. */
    private RequestBody replayable(WaitingRequest waiting) {
        RequestBody body = waiting.body();
        RetryConfig retry = provider().config().retry();
        if (retry.enabled() && body instanceof RequestBody.Streamed) {
            body = RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, retry.maxBodyBytes()));
        }
        return body;
    }

    /** Answers a refused request locally, through the sink (on the committed comment stream when there is one). */
    private ExchangeResult refused(Refusal refusal, ClientSink sink, ExchangeResult so) {
        return switch (refusal) {
            case Refusal.CircuitOpen open -> sink.fail(so, LocalFailure.circuitOpen(open.untilProbe()));
            case Refusal.QueueFull full -> sink.fail(so, LocalFailure.queueFull(full.depth(),
                    full.retryAfter() != null ? full.retryAfter() : provider().config().admission().releaseCooldown()));
            case Refusal.QueueTimeout timeout -> sink.fail(so, LocalFailure.QUEUE_TIMEOUT);
            case Refusal.LimiterUnavailable unavailable -> sink.fail(so, LocalFailure.LIMITER_UNAVAILABLE);
            case Refusal.ClientGone gone -> so.committed(sink.state() instanceof ClientSink.CommittedStream ? 200 : 0).clientLeft();
        };
    }
}
