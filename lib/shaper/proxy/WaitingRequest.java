package shaper.proxy;

import java.time.Duration;
import java.util.Locale;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.ClientGoneException;
import shaper.admission.QueueWait;
import shaper.proxy.watch.ClientConnection;

/**
 * A request about to wait for a slot. Before waiting it reads its body into memory (bounded), so
 * nothing but a disconnect can arrive on the client connection, and starts watching that
 * connection; with {@code -queue-comments} and an SSE-accepting streaming request it commits the
 * SSE response and ticks comments. A body too large to buffer waits silently and unwatched.
 */
final class WaitingRequest implements QueueWait {
    /** Bodies up to this size are buffered to wait; larger ones stream once admitted. */
    static final int BUFFER_LIMIT = 8 * 1024 * 1024;

    private final ServerRequest req;
    private final ServerResponse res;
    private final ClientConnection connection;
    private final RequestCoding coding;
    private final Duration commentInterval;
    private RequestBody body;
    private EarlyStream comments;

    WaitingRequest(ServerRequest req, ServerResponse res, ClientConnection connection, RequestCoding coding, RequestBody body,
                   Duration commentInterval) {
        this.req = req;
        this.res = res;
        this.connection = connection;
        this.coding = coding;
        this.body = body;
        this.commentInterval = commentInterval;
    }

    RequestBody body() {
        return body;
    }

    /** The committed SSE stream, or null when the wait was silent. */
    EarlyStream comments() {
        return comments;
    }

    @Override
    public void beforeWaiting() throws ClientGoneException {
        try {
            body = RequestBody.buffer(body, BUFFER_LIMIT);
        } catch (StreamCopy.SourceFailed e) {
            throw new ClientGoneException("client left while sending its body");
        }
        if (commentInterval.isPositive() && wantsEventStream() && !(body instanceof RequestBody.Streamed) && !saysStreamFalse()) {
            comments = EarlyStream.commit(res, EarlyStream.Origin.QUEUE);
            comments.queueComment(Duration.ZERO);
        }
        // A comment stream notices a departed client at its next write; a silent wait needs the watch.
        if (comments == null && !(body instanceof RequestBody.Streamed)) {
            connection.watch();
        }
    }

    @Override
    public Duration tickInterval() {
        return comments == null ? Duration.ZERO : commentInterval;
    }

    @Override
    public void tick(Duration waited) throws ClientGoneException {
        if (comments != null) {
            comments.queueComment(waited);
        }
    }

    @Override
    public boolean clientGone() {
        return !connection.isOpen();
    }

    private boolean wantsEventStream() {
        return req.headers().first(HeaderNames.ACCEPT).map(a -> a.toLowerCase(Locale.ROOT).contains("text/event-stream")).orElse(false);
    }

    private boolean saysStreamFalse() {
        byte[] plain = coding.plain(body.bytes(), StreamFlag.CODED_PEEK_LIMIT);
        return plain != null && StreamFlag.isExplicitlyFalse(plain);
    }
}
