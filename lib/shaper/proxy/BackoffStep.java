package shaper.proxy;


import shaper.admission.ClientGoneException;
import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.codec.ContentCodings;
import shaper.limit.TimeSource;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangeTrace;
import shaper.observe.RetryLines;
import shaper.retry.RetryConfig;
import shaper.retry.RetryDecision;
import shaper.proxy.watch.ClientConnection;

/**
 * The step between two attempts: log the retry, commit an event stream for a streaming request
 * (so its client gets keepalives instead of silence), wait out the backoff while watching the
 * client, then ask the breaker again.
 *
 * <pre>
 * retry ─▶ log ─▶ [commit stream] ─▶ wait (keepalives; client gone ends it) ─▶ breaker.allow()
 *                                                                        open ─▶ circuit-open answer
 * </pre>
 */
final class BackoffStep {
    /** What the step concluded: try again with a new breaker admission, or the exchange ended. */
    sealed interface Next permits Again, Ended {
    }

    record Again(Admission admission) implements Next {
    }

    record Ended(ExchangeResult result) implements Next {
    }

    private BackoffStep() {
    }

    static Next run(RetryDecision.Retry r, int attempt, String provider, String method, String rawPath, RetryConfig config,
                    CircuitBreaker breaker, ExchangeLog log, ExchangeTrace trace, ClientSink sink, ClientConnection client,
                    RequestBody body, ContentCodings codings, ExchangeResult so, TimeSource time) {
        trace.backingOff();
        log.info(RetryLines.retry(provider, method, rawPath, attempt, r));
        ExchangeResult result = so;
        // Parsed only when a retry happens: the common path never reads the JSON body.
        if (sink.state() instanceof ClientSink.NotCommitted && config.keepalive().isPositive() && body.bytes() != null
                && StreamFlag.isTrue(body.bytes(), codings)) {
            sink.commitForRetry();
            result = result.committed(200);
        }
        boolean watched = sink.state() instanceof ClientSink.NotCommitted;
        if (watched) {
            client.watch(); // the body is in memory (replayable) and nothing is written meanwhile
        }
        try {
            BackoffWait.await(r.delay(), sink, config.keepalive(), client, time);
        } catch (ClientGoneException e) {
            return new Ended(result.clientLeft());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Ended(result.clientLeft());
        } finally {
            client.unwatch(); // the next attempt's answer is written to this connection
        }
        Admission admission = breaker.allow();
        if (admission instanceof Admission.Rejected) {
            return new Ended(sink.fail(result, LocalFailure.circuitOpen(breaker.snapshot().nextProbeIn())));
        }
        return new Again(admission);
    }

}
