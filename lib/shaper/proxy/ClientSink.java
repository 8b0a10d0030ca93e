package shaper.proxy;

import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.ClientGoneException;
import shaper.observe.Outcome;

/**
 * Where everything the client gets goes: the one place that knows whether the answer is already
 * committed and which dialect the client speaks. Its role is that of Go's
 * {@code ReverseProxy.ErrorHandler}: every local failure goes through {@link #fail}, which writes an
 * HTTP answer while nothing is committed, or ends a committed stream with one last event of the
 * client's dialect (a {@code : queue-wait failed:} comment on a queue-comment stream).
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
    sealed interface State permits NotCommitted, CommittedStream {
    }

    /** Nothing written: the status is still open. */
    record NotCommitted() implements State {
    }

    /** A {@code 200} event stream was committed before the upstream answered (queue comments or a streaming retry). */
    record CommittedStream(EarlyStream stream) implements State {
    }

    private static final NotCommitted NOT_COMMITTED = new NotCommitted();

    private final ServerResponse res;
    private final Dialect dialect;
    private State state;

    ClientSink(ServerResponse res, Dialect dialect, EarlyStream early) {
        this.res = res;
        this.dialect = dialect;
        this.state = early == null ? NOT_COMMITTED : new CommittedStream(early);
    }

    /** Whether anything is committed yet; switch on it where the two cases differ. */
    State state() {
        return state;
    }

    /** The response, for a stage that writes a whole answer of its own while nothing is committed. */
    ServerResponse response() {
        return res;
    }

    /** The wire the client speaks, judged from its path. */
    Dialect dialect() {
        return dialect;
    }

    /** The committed stream, or null while nothing is committed. */
    EarlyStream stream() {
        return state instanceof CommittedStream c ? c.stream() : null;
    }

    /** Commits an event stream for a streaming retry's keepalives; a no-op when already committed. */
    void commitForRetry() {
        if (state instanceof NotCommitted) {
            state = new CommittedStream(EarlyStream.commit(res, EarlyStream.Origin.RETRY));
        }
    }

    /** A keepalive on the committed stream; nothing while the status is open. */
    void keepalive() throws ClientGoneException {
        if (state instanceof CommittedStream c) {
            c.stream().keepalive(dialect);
        }
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
        if (f.body() == LocalFailure.Body.PLAIN || (f.body() == LocalFailure.Body.DIALECT_OR_PLAIN && dialect == Dialect.OTHER)) {
            res.status(Status.create(f.status()));
            if (f.retryAfter().isPositive()) {
                res.header(HeaderNames.RETRY_AFTER, Long.toString(f.retryAfter().toSeconds()));
            }
            res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).header(HeaderValues.create("X-Content-Type-Options", "nosniff"))
                    .send((f.message() + "\n").getBytes(StandardCharsets.UTF_8));
            return;
        }
        sendError(f.status(), errorBody(f).getBytes(StandardCharsets.UTF_8),
                f.retryAfter().isPositive() ? Long.toString(f.retryAfter().toSeconds()) : null, null);
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
        RequestIds.put(res, dialect, requestId);
        res.send(json);
    }

    /** The error object of the client's dialect. */
    private String errorBody(LocalFailure f) {
        String code = f.code() == null ? "" : "\"code\":" + Json.quote(f.code()) + ",";
        String message = "\"message\":" + Json.quote(f.message());
        Dialect d = f.body() == LocalFailure.Body.NEUTRAL ? Dialect.OTHER : dialect;
        return switch (d) {
            case MESSAGES -> "{\"type\":\"error\",\"error\":{\"type\":" + Json.quote(f.anthropic()) + "," + message + "}}";
            case CHAT, RESPONSES -> "{\"error\":{\"type\":" + Json.quote(f.openai()) + "," + code + message + "}}";
            case OTHER -> "{\"type\":\"error\",\"error\":{\"type\":" + Json.quote(f.anthropic()) + "," + code + message + "}}";
        };
    }
}
