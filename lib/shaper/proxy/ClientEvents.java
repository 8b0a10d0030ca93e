package shaper.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import shaper.transcode.EventSink;

/**
 * The client's event stream: committed with the first event (so a failure before any event can
 * still be an HTTP status), flushed per upstream read, a write failure meaning the client left.
 */
final class ClientEvents implements EventSink {
    private final ServerResponse res;
    private OutputStream out;

    /** @param committed the stream committed before the upstream answered, or null to commit one with the first event */
    ClientEvents(ServerResponse res, OutputStream committed) {
        this.res = res;
        this.out = committed;
    }

    @Override
    public void event(String name, String json) {
        if (out == null) {
            res.status(Status.OK_200).header(HeaderValues.create("Content-Type", "text/event-stream"))
                    .header(HeaderValues.create("Cache-Control", "no-cache"));
            out = res.outputStream();
        }
        try {
            out.write(("event: " + name + "\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
    }

    @Override
    public void flush() {
        if (out == null) {
            return;
        }
        try {
            out.flush();
        } catch (IOException | RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
    }

    void close() {
        if (out == null) {
            res.status(Status.OK_200).header(HeaderValues.create("Content-Type", "text/event-stream")).send();
            return;
        }
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
    }
}
