package shaper.probe;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerResponse;

/**
 * An HTTP 200 {@code text/event-stream} response written frame by frame, each flushed at once so
 * a client (or the proxy's SSE inspector) sees every event when it is sent, not when a buffer fills.
 * Frames are {@code event:} + one {@code data:} line (the JSON is compact, so it never holds a newline).
 */
final class SseStream implements AutoCloseable {
    private final OutputStream out;

    SseStream(ServerResponse res) {
        res.header(HeaderValues.create(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8"));
        res.header(HeaderValues.create(HeaderNames.CACHE_CONTROL, "no-cache"));
        this.out = res.outputStream();
    }

    /** One event, as {@code event: NAME\ndata: JSON\n\n}. */
    void send(String event, String data) {
        write("event: " + event + "\ndata: " + data + "\n\n");
    }

    /** One data-only frame, as Chat Completions streams send them: {@code data: JSON\n\n}. */
    void data(Object json) {
        write("data: " + json + "\n\n");
    }

    /** Text written as it is (a sentinel such as {@code data: [DONE]}). */
    void raw(String text) {
        write(text);
    }

    private void write(String text) {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
