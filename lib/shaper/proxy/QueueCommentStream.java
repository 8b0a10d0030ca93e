package shaper.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import shaper.admission.ClientGoneException;

/**
 * The early-committed SSE response of {@code -queue-comments}: {@code 200} and SSE headers go out
 * before admission, then {@code : queue-wait elapsed=N} comments (N in whole seconds) while the
 * request waits. Once committed, the exchange is locked to this stream: the upstream's 2xx body is
 * appended, and any failure ends the stream with {@code : queue-wait failed: <reason>} instead of
 * an HTTP error status. A failing write means the client has gone.
 */
final class QueueCommentStream {
    private final OutputStream sink;

    private QueueCommentStream(OutputStream sink) {
        this.sink = sink;
    }

    static QueueCommentStream commit(ServerResponse res) throws ClientGoneException {
        res.status(Status.OK_200)
                .header(HeaderValues.create("Content-Type", "text/event-stream"))
                .header(HeaderValues.create("Cache-Control", "no-cache"));
        QueueCommentStream stream = new QueueCommentStream(res.outputStream());
        stream.comment(Duration.ZERO);
        return stream;
    }

    OutputStream sink() {
        return sink;
    }

    void comment(Duration waited) throws ClientGoneException {
        write(": queue-wait elapsed=" + waited.toSeconds() + "\n\n");
    }

    /** Ends the stream after a failure; the client sees a stream that stops without its final event. */
    void fail(String reason) {
        try {
            write(": queue-wait failed: " + reason + "\n\n");
            sink.close();
        } catch (ClientGoneException | IOException | RuntimeException e) {
            // the client is gone already; nothing else to tell it
        }
    }

    private void write(String text) throws ClientGoneException {
        try {
            sink.write(text.getBytes(StandardCharsets.UTF_8));
            sink.flush();
        } catch (IOException | RuntimeException e) {
            throw new ClientGoneException("client left while queued");
        }
    }
}
