package shaper.proxy;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.helidon.http.Headers;
import shaper.observe.EndReason;
import shaper.observe.ExchangeTrace;
import shaper.observe.ExchangeTracing;
import shaper.observe.Outcome;
import shaper.proxy.AnswerJudge.BreakerVerdict;
import shaper.proxy.TurnSocket.TurnEnd;
import shaper.proxy.watch.ClientConnection;
import shaper.retry.FailureClass;
import shaper.usage.UsageScanner;

/**
 * The WebSocket entrance of the request path: one generating {@code response.create} of a Responses
 * WebSocket session as one exchange, through the same stages as an HTTP request.
 *
 * <pre>
 * Intake.ofTurn ─▶ Target ─▶ AdmissionStage ─▶ relay over the session's upstream socket ─▶ Settlement
 *  (Exchange:       (route)   (budget, breaker,    (the frame sent, events relayed until
 *   POST, the path,            slots; a refusal     response.completed / failed / incomplete,
 *   handshake headers)         is an error event)   an error event, a close or the bound)
 * </pre>
 *
 * The turn runs on a thread of its own while the session's frame loop keeps answering the client's
 * pings; the slot is held from admission until the turn's terminal event or a socket's close, then
 * given back by the settlement with the cooldown rules of any exchange. Breaker: a completed turn is a
 * success, an upstream error event of an overload status or a broken upstream a failure, a client
 * that left cancels. The turn is relayed once: nothing is retried inside a socket (the client retries
 * on a new one after an error event).
 */
public final class SocketTurn {
    private SocketTurn() {
    }

    /**
     * What one turn asks: the session's handshake and one request frame.
     *
     * @param headers the handshake's header fields (priority rules and budgets read them as a request's)
     * @param path    the routed path after the mount prefix, as a {@code POST} of the same path would have
     * @param client  the name of the client key the handshake presented, empty when none is required
     * @param frame   the request frame's text, UTF-8
     */
    public record Asked(Headers headers, String path, Optional<String> client, byte[] frame) {
        public Asked {
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(frame, "frame");
        }
    }

    /**
     * Serves one turn to its end on the calling thread: one record, whatever happens.
     *
     * @param tracing where the turn's spans come from: they continue the handshake's {@code traceparent}, so
     *                every turn of a session is a child of the span the client opened the socket under
     */
    public static void serve(ProviderAssembly provider, Asked asked, TurnSocket socket, ExchangeTracing tracing) {
        ExchangeTrace trace = provider.publisher().journal().begin("POST", asked.path(), "");
        trace.transport("ws");
        trace.spans(tracing.begin(provider.name(), "POST", asked.path(),
                name -> asked.headers().first(io.helidon.http.HeaderNames.create(name)).orElse(null)));
        ClientSink sink = ClientSink.onSocket(socket);
        ClientConnection connection = ClientConnection.owned(socket::clientOpen);
        Settlement settlement = new Settlement(provider, sink, connection, trace, asked.headers());
        settlement.run(() -> {
            Intake intake = Intake.ofTurn(asked, provider, trace);
            Carriage c = new Carriage(intake.exchange(), sink, connection, trace, null);
            Target target = Target.candidates(provider, c.exchange()).getFirst();
            return switch (AdmissionStage.admit(c, target, intake, settlement)) {
                case AdmissionStage.Refused refused -> refused.result();
                case AdmissionStage.Admitted admitted -> relay(c, provider, admitted, settlement, socket);
                // a provider's own target never moves on: a socket turn has nowhere else to go
                case AdmissionStage.Moved moved -> throw new IllegalStateException("a socket turn cannot move to another target");
            };
        });
    }

    private static ExchangeResult relay(Carriage c, ProviderAssembly provider, AdmissionStage.Admitted admitted, Settlement settlement,
                                        TurnSocket socket) {
        settlement.forwarded();
        byte[] frame = admitted.body().bytes();
        settlement.sent(frame, c.exchange().coding());
        UsageScanner usage = UsageScanner.forContentType("text/event-stream");
        c.trace().usageScanner(usage);
        // the upstream socket was opened at the handshake: a turn's trace context cannot go with its frame
        c.trace().attemptStarted();
        ExchangeTrace trace = c.trace();
        TurnEnd end = socket.relay(frame, usage, () -> {
            trace.upstreamHeaders(200); // a turn's first event is its answer's head: the 200 its record shows
            trace.clientHeaders();
        }, provider.config().retry().upstreamTimeout());
        ExchangeResult result = judged(end, ExchangeResult.START.reached());
        BreakerVerdict.of(result.outcome() == Outcome.CLEAN, result.failure(), result.retryAfter(), result.clientAborted())
                .report(provider.breaker(), admitted.grant().breaker());
        return result;
    }

    /** What a turn's end means for its record, its slots and the breaker. */
    private static ExchangeResult judged(TurnEnd end, ExchangeResult so) {
        int committed = end.relayed() > 0 ? 200 : 0;
        return switch (end.kind()) {
            case COMPLETED -> so.ended(EndReason.COMPLETED, Outcome.CLEAN, 200).judged(FailureClass.SUCCESS, Duration.ZERO);
            case FAILED -> so.ended(EndReason.UPSTREAM_ERROR_EVENT, Outcome.CLEAN, 200).judged(FailureClass.NEUTRAL, Duration.ZERO);
            case ERROR_EVENT -> {
                FailureClass f = end.status() == 429 ? FailureClass.RATE_LIMITED
                        : end.status() >= 500 ? FailureClass.SERVER_ERROR : FailureClass.CLIENT_ERROR;
                ExchangeResult r = so.ended(EndReason.UPSTREAM_ERROR_EVENT, Outcome.CLEAN, end.status()).judged(f, end.retryAfter());
                yield f.isUpstreamFailure() ? r.overloaded(Integer.toString(end.status())) : r;
            }
            case UPSTREAM_CLOSED -> so.committed(committed).ended(EndReason.UPSTREAM_BROKE_OFF, Outcome.ABORTED, committed)
                    .judged(FailureClass.TRANSPORT_ERROR, Duration.ZERO);
            case TIMED_OUT -> so.committed(committed).ended(EndReason.UPSTREAM_BROKE_OFF, Outcome.ABORTED, committed)
                    .judged(FailureClass.TRANSPORT_ERROR, Duration.ZERO);
            case CLIENT_LEFT -> so.committed(committed).clientLeft();
        };
    }
}
