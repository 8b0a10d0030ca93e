package shaper.proxy;

import io.helidon.webserver.http.ServerRequest;
import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.limit.TimeSource;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangeTrace;
import shaper.retry.RetryConfig;
import shaper.retry.RetryPolicy;
import shaper.proxy.watch.CallWatch;
import shaper.proxy.watch.ClientConnection;

/**
 * Sends one admitted request upstream, retrying what is safe to retry, and relays the answer: one
 * provider's side of the attempt loop ({@link AttemptLoop}).
 *
 * <pre>
 * attempt ──transport error / retryable status / early SSE error──▶ breaker failure, BackoffStep
 *    ▲           (keepalives on a committed stream; client gone ends it)     │
 *    └────────────────────── breaker.allow() again ◀──────────────────────────┘
 * attempt ──accepted answer (ResponseDecision)──▶ relay (bytes read for the decision first, as received)
 * </pre>
 *
 * A body is replayable only when it was buffered (up to {@code -retry-max-body-mb}); a larger one
 * is sent once. Errors before any response byte reach the client through the {@link ClientSink}
 * ({@code 502}); once the response is committed, a failure on either side cuts the client
 * connection (so a truncated body can never look complete) and closes the upstream connection (so
 * the upstream stops generating). Each attempt reports to the circuit breaker; success only once
 * the body reached the client.
 */
record Forwarder(ProviderAssembly assembly, CallWatch calls, StopCut stop, StreamThreads streams) {
    static final int DRAIN_LIMIT = 4 * 1024;

    /**
     * Forwards through a transcoded route's stage when {@code stage} is not null: the request is
     * converted once before the first attempt (a local failure is answered then, and the breaker
     * admission is given back unused), and the accepted answer is converted instead of relayed.
     *
     * @throws StageFailed on an unexpected failure, carrying the exchange so far
     */
    ExchangeResult forward(ServerRequest req, ClientSink sink, String rawPath, RequestBody body, ClientConnection client,
                           ExchangeTrace trace, Admission admission, TranscodeStage stage, ExchangeResult so) {
        TranscodeStage.Converted converted = null;
        if (stage != null) {
            switch (stage.prepare(req, sink, rawPath, body, so)) {
                case TranscodeStage.Answered answered -> {
                    breaker().cancel(admission);
                    return answered.result();
                }
                case TranscodeStage.Converted c -> {
                    converted = c;
                    body = c.body();
                }
            }
        }
        return new AttemptLoop(this, req, sink, rawPath, body, client, trace, admission, stage, converted, so).run();
    }

    String provider() {
        return assembly.name();
    }

    Upstreams upstreams() {
        return assembly.upstreams();
    }

    ExchangeLog log() {
        return assembly.publisher().log();
    }

    RetryConfig config() {
        return assembly.config().retry();
    }

    RetryPolicy policy() {
        return assembly.retry();
    }

    CircuitBreaker breaker() {
        return assembly.breaker();
    }

    HeaderRewrite rewrite() {
        return assembly.rewrite();
    }

    TimeSource time() {
        return assembly.time();
    }
}
