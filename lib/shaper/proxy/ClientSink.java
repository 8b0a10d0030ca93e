package shaper.proxy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.ClientGoneException;
import shaper.observe.Header;
import shaper.observe.Outcome;
import shaper.proxy.watch.ClientConnection;

/**
 * Where everything the client gets goes: the one place that knows whether the answer is already
 * committed and which dialect the client speaks; no stage asks, each calls the operation it needs.
 * Its role is that of Go's {@code ReverseProxy.ErrorHandler}: every local failure goes through
 * {@link #fail}, which writes an HTTP answer while nothing is committed, or ends a committed stream
 * with one last event of the client's dialect (a {@code : queue-wait failed:} comment on a
 * queue-comment stream). An accepted answer is written by a {@link Delivery}, whole or appended.
 *
 * <pre>
 *   NotCommitted ──queue comments / streaming retry──▶ CommittedStream(EarlyStream)
 *        │ fail: status + body (+ Retry-After)             │ fail: one error event, stream closed
 * </pre>
 *
 * Belongs to the exchange's thread.
 */
final class ClientSink {
    /** Whether the client's answer is committed yet. */
    private sealed interface State permits NotCommitted, CommittedStream {
    }

    /** Nothing written: the status is still open. */
    private record NotCommitted() implements State {
    }

    /** A {@code 200} event stream was committed before the upstream answered (queue comments or a streaming retry). */
    private record CommittedStream(EarlyStream stream) implements State {
    }

    /**
     * How an accepted answer is written: whole while the status is open, or appended to the event
     * stream committed before the upstream answered.
     */
    interface Delivery<R> {
        R whole(ServerResponse res);

        R appended(EarlyStream stream, Dialect dialect);
    }

    private static final NotCommitted NOT_COMMITTED = new NotCommitted();

    private final ServerResponse res;
    private final Dialect dialect;
    /** The WebSocket session of a turn, which answers a local failure as an error event; null over HTTP. */
    private final TurnSocket socket;
    private State state = NOT_COMMITTED;

    ClientSink(ServerResponse res, Dialect dialect) {
        this(res, dialect, null);
    }

    private ClientSink(ServerResponse res, Dialect dialect, TurnSocket socket) {
        this.res = res;
        this.dialect = dialect;
        this.socket = socket;
    }

    /**
     * The sink of one WebSocket turn: nothing is ever committed in it (a turn has no status line, and
     * its events are relayed by the session), so a local failure is always the session's error event.
     */
    static ClientSink onSocket(TurnSocket socket) {
        return new ClientSink(null, Dialect.RESPONSES, socket);
    }

    /** Writes the answer by {@code delivery}, the way the client can still take it. */
    <R> R deliver(Delivery<R> delivery) {
        return switch (state) {
            case NotCommitted n -> delivery.whole(res);
            case CommittedStream c -> delivery.appended(c.stream(), dialect);
        };
    }

    /** The client's event stream for a converted answer: the committed one, or one committed with its first event. */
    ClientEvents events() {
        return new ClientEvents(res, state instanceof CommittedStream c ? c.stream().sink() : null);
    }

    /**
     * Commits an event stream for {@code -queue-comments} and writes the first comment; on a stream an
     * earlier target of a routed request committed (nothing of an answer on it yet), writes the comment only.
     */
    void commitForQueue() throws ClientGoneException {
        EarlyStream stream = state instanceof CommittedStream c ? c.stream() : EarlyStream.commit(res, EarlyStream.Origin.QUEUE);
        state = new CommittedStream(stream);
        stream.queueComment(Duration.ZERO);
    }

    /** A {@code : queue-wait} comment on the queue's stream; nothing without one. */
    void queueComment(Duration waited) throws ClientGoneException {
        if (state instanceof CommittedStream c) {
            c.stream().queueComment(waited);
        }
    }

    /**
     * Commits an event stream for a streaming retry's keepalives, when nothing is committed yet and
     * {@code streams} says the client asked for a stream (asked only then: it may parse the body).
     *
     * @return true when the stream was committed now
     */
    boolean commitForRetry(BooleanSupplier streams) {
        if (state instanceof NotCommitted && streams.getAsBoolean()) {
            state = new CommittedStream(EarlyStream.commit(res, EarlyStream.Origin.RETRY));
            return true;
        }
        return false;
    }

    /**
     * Watches {@code client} for departure while nothing is written to it; a committed stream finds a
     * departure at its next keepalive instead (and a watched channel cannot be written).
     */
    void watchWhileSilent(ClientConnection client) {
        if (state instanceof NotCommitted) {
            client.watch();
        }
    }

    /** A keepalive on the committed stream; nothing while the status is open. */
    void keepalive() throws ClientGoneException {
        if (state instanceof CommittedStream c) {
            c.stream().keepalive(dialect);
        }
    }

    /** The exchange so far, ended by a client that left: with the committed {@code 200} when a stream was open. */
    ExchangeResult left(ExchangeResult so) {
        return so.committed(state instanceof CommittedStream ? 200 : 0).clientLeft();
    }

    /** The listener closes the connection after this answer: the rest of the request body is not read. */
    void closeAfterAnswer() {
        res.header(HeaderNames.CONNECTION, "close");
    }

    /** The answer's header fields for the journal; none while nothing was sent for an exchange without a status. */
    List<Header> journalHeaders(int status) {
        if (res == null) {
            return List.of();
        }
        return res.isSent() || status > 0 ? JournalHeaders.of(res.headers()) : List.of();
    }

    /**
     * Answers {@code failure} only while the status is open; empty on a committed stream, whose
     * relay ends it in the stream's own way.
     */
    Optional<ExchangeResult> failWhileOpen(ExchangeResult so, LocalFailure failure) {
        return state instanceof NotCommitted ? Optional.of(fail(so, failure)) : Optional.empty();
    }

    /**
     * Answers {@code failure} the way the client can still be told, and returns the exchange so far
     * ended by it: {@code failed} with the failure's status while nothing was committed, else
     * {@code aborted} with the committed {@code 200}.
     */
    ExchangeResult fail(ExchangeResult so, LocalFailure failure) {
        return switch (state) {
            case NotCommitted n -> {
                answer(failure);
                yield so.ended(failure.reason(), Outcome.FAILED, failure.status());
            }
            case CommittedStream c -> {
                // the event's type is the Anthropic spelling in every dialect, as the events always carried
                c.stream().fail(dialect, failure.queueWord(), failure.anthropic(), failure.streamMessage());
                yield so.ended(failure.reason(), Outcome.ABORTED, 200);
            }
        };
    }

    private void answer(LocalFailure f) {
        if (socket != null) {
            // a client waiting on a socket retries a refusal after its retry-after, on a new socket
            socket.refuse(f.status(), f.openai(), f.code(), f.message(), LocalFailure.atLeastOneSecond(f.retryAfter()));
            return;
        }
        if (f.plainFor(dialect)) {
            res.status(Status.create(f.status()));
            if (f.retryAfter().isPositive()) {
                res.header(HeaderNames.RETRY_AFTER, Long.toString(f.retryAfter().toSeconds()));
            }
            res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).header(HeaderValues.create("X-Content-Type-Options", "nosniff"))
                    .send((f.message() + "\n").getBytes(StandardCharsets.UTF_8));
            return;
        }
        sendError(f.status(), f.json(dialect).getBytes(StandardCharsets.UTF_8),
                f.retryAfter().isPositive() ? Long.toString(f.retryAfter().toSeconds()) : null, null);
    }

    /** Answers the routed mount's own {@code 200} JSON (its model list); nothing may be committed yet. */
    ExchangeResult listed(byte[] json) {
        res.status(Status.OK_200).header(HeaderValues.CONTENT_TYPE_JSON).send(json);
        return ExchangeResult.START.ended(shaper.observe.EndReason.COMPLETED, Outcome.LOCAL, 200);
    }

    /**
     * Sends a JSON error answer of the client's dialect (nothing may be committed yet): the status,
     * {@code Retry-After} when given, and the request id under the names the client's SDK reads
     * ({@link RequestIds}), the upstream's when it sent one, else one of the proxy's own.
     *
     * @param retryAfter the header's value, or null for none
     * @param requestId  the upstream's request id, or null
     */
    void sendError(int status, byte[] json, String retryAfter, String requestId) {
        res.status(Status.create(status)).header(HeaderValues.CONTENT_TYPE_JSON);
        if (retryAfter != null) {
            res.header(HeaderNames.RETRY_AFTER, retryAfter);
        }
        putRequestId(requestId);
        res.send(json);
    }

    /**
     * The request id on the proxy's own JSON error answers, under the name each SDK reads: Anthropic's
     * SDK reads {@code request-id}, OpenAI's API and SDK {@code x-request-id}. An answer in the OpenAI
     * dialects (Chat, Responses) carries both, so a client that reads the other name loses nothing; the
     * upstream's id is kept when it sent one, else the proxy makes one ({@code req_shaper_…}) so a
     * failed call can still be named in a log or a bug report.
     */
    private void putRequestId(String upstreamId) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String id = upstreamId != null ? upstreamId
                : "req_shaper_" + Long.toHexString(r.nextLong() | Long.MIN_VALUE) + Long.toHexString(r.nextLong() | Long.MIN_VALUE);
        res.header(HeaderNames.create("Request-Id"), id);
        if (dialect == Dialect.CHAT || dialect == Dialect.RESPONSES) {
            res.header(HeaderNames.create("x-request-id"), id);
        }
    }
}
