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
 * An SSE response committed before the upstream has answered: by {@code -queue-comments} (while
 * the request waits for a slot) or by a streaming retry (while it waits on backoff). {@code 200}
 * and SSE headers go out first; then comments or keepalives, never inside a frame. Once committed,
 * the exchange is locked to this stream: a recovered upstream's 2xx body is appended, and a final
 * failure ends the stream with a failure comment (queue) or an error event in the client's
 * envelope (retry) instead of an HTTP error status, so a raw upstream error body never enters it.
 * A failing write means the client has gone.
 */
record EarlyStream(OutputStream sink, Origin origin) {
    /** What committed the stream; it decides how a failure is reported. */
    enum Origin { QUEUE, RETRY }

    static EarlyStream commit(ServerResponse res, Origin origin) {
        res.status(Status.OK_200)
                .header(HeaderValues.create("Content-Type", "text/event-stream"))
                .header(HeaderValues.create("Cache-Control", "no-cache"));
        return new EarlyStream(res.outputStream(), origin);
    }

    /** {@code : queue-wait elapsed=N}, N in whole seconds. */
    void queueComment(Duration waited) throws ClientGoneException {
        write(": queue-wait elapsed=" + waited.toSeconds() + "\n\n");
    }

    void keepalive(Dialect dialect) throws ClientGoneException {
        write(dialect.keepalive());
    }

    /** Ends the stream after a failure, the way its origin reports failures. */
    void fail(Dialect dialect, String queueReason, String errorType, String message) {
        finish(origin == Origin.QUEUE ? ": queue-wait failed: " + queueReason + "\n\n" : dialect.errorEvent(errorType, message));
    }

    private void finish(String last) {
        try {
            write(last);
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
            throw new ClientGoneException("client left while the stream was held open");
        }
    }
}
