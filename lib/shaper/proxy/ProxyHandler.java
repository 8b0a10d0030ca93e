package shaper.proxy;

import java.time.Duration;
import java.util.function.Supplier;

import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.AdmissionClass;
import shaper.admission.AdmissionConfig;
import shaper.admission.Admitter;
import shaper.admission.ClientGoneException;
import shaper.admission.ProviderLimiters;
import shaper.admission.Slots;
import shaper.limit.AdmissionException;
import shaper.limit.QueueCancelledException;
import shaper.limit.QueueFullException;
import shaper.limit.QueueTimeoutException;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeLog;
import shaper.observe.Outcome;

/**
 * One provider's request path: classify the route, take its slots (waiting in FIFO order if
 * needed), forward, then give the slots back by the rules of {@link Slots}. Every exit path (local
 * answer, client gone, upstream failure, exception) reaches the {@code finally} that disposes the
 * slots, counts and logs the exchange.
 */
public final class ProxyHandler implements Handler {
    private final String provider;
    private final AdmissionConfig config;
    private final ProviderLimiters limiters;
    private final Admitter admitter;
    private final Forwarder forwarder;
    private final ExchangeLog log;
    private final ExchangeCounters counters;
    private final Supplier<Duration> penalty;

    public ProxyHandler(String provider, AdmissionConfig config, ProviderLimiters limiters, Admitter admitter,
                        Upstream upstream, ExchangeLog log, ExchangeCounters counters, Supplier<Duration> penalty,
                        HeaderRewrite rewrite) {
        this.provider = provider;
        this.config = config;
        this.limiters = limiters;
        this.admitter = admitter;
        this.forwarder = new Forwarder(provider, upstream, log, rewrite);
        this.log = log;
        this.counters = counters;
        this.penalty = penalty;
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
        long start = System.nanoTime();
        String method = req.prologue().method().text();
        AdmissionClass cls = limiters.classify(method, rawPath);
        Exchange ex = new Exchange();
        Slots slots = null;
        try {
            ClientConnection connection = ClientConnection.of(req);
            WaitingRequest waiting = new WaitingRequest(req, res, connection, RequestBody.of(req), config.queueComments());
            slots = admit(cls, waiting, res, ex);
            if (slots == null) {
                return;
            }
            if (!connection.isOpen()) {
                ex.clientAborted = true;
                return;
            }
            forwarder.forward(req, res, rawPath, waiting.body(), waiting.comments(), ex);
        } catch (RuntimeException | Error e) {
            if (!ex.reachedUpstream) {
                ex.localError = true;
            }
            throw e;
        } finally {
            if (slots != null) {
                slots.dispose(ex.end(), penalty);
            }
            counters.record(ex.status, ex.outcome, cls.limited());
            log.exchange(provider, method, rawPath, ex.status, System.nanoTime() - start, ex.outcome);
        }
    }

    /** Takes the slots, or answers locally and returns null. */
    private Slots admit(AdmissionClass cls, WaitingRequest waiting, ServerResponse res, Exchange ex) {
        if (cls.chain().isEmpty()) {
            return admitter.unlimited(cls);
        }
        try {
            return admitter.admit(cls, waiting);
        } catch (QueueFullException e) {
            ex.status = 429;
            ex.outcome = Outcome.FAILED;
            if (waiting.comments() != null) {
                waiting.comments().fail("queue full");
                ex.status = 200;
                ex.outcome = Outcome.ABORTED;
            } else {
                LocalAnswers.queueFull(res, e.depth(), config.releaseCooldown());
            }
        } catch (QueueTimeoutException e) {
            ex.outcome = Outcome.FAILED;
            if (waiting.comments() != null) {
                ex.status = 200;
                ex.outcome = Outcome.ABORTED;
                waiting.comments().fail("timeout");
            } else {
                ex.status = 504;
                LocalAnswers.text(res, Status.GATEWAY_TIMEOUT_504, LocalAnswers.QUEUE_TIMEOUT);
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
}
