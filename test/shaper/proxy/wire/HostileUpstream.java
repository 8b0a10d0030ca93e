package shaper.proxy.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import shaper.testing.ConnectionOrder;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A scripted upstream that answers each path with exact bytes (ISO-8859-1, so a CR, a NUL or an
 * obs-text byte goes out as written) and then keeps the connection open: only the proxy can end
 * it. {@code /ok} answers a plain 200 "fine".
 */
final class HostileUpstream {
    static final Duration BOUND = Duration.ofSeconds(30);
    static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nfine";

    private HostileUpstream() {
    }

    static ScriptedUpstream answering(ConnectionOrder order, Map<String, String> wire) {
        return ScriptedUpstream.start((req, ex) -> {
            order.arrived(ex);
            String path = req.target();
            String bytes = path.equals("/ok") ? OK : wire.get(path);
            if (bytes == null) {
                throw new IllegalStateException("no wire scripted for " + path);
            }
            ex.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        });
    }

    /** One GET over its own client connection ({@code Connection: close}); everything the client received. */
    static String fetch(RunningShaper shaper, String path) throws IOException {
        int before = shaper.logLines(" exchange ").size();
        String got;
        try (RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            got = raw.readToEnd();
        }
        // the client may hold its answer before the proxy has handed the upstream connection back to the
        // pool; the exchange's log line comes after that, so the next request finds the pool settled
        exchanges(shaper, before + 1);
        return got;
    }

    /** Waits until {@code n} exchanges were logged; returns their lines. */
    static List<String> exchanges(RunningShaper shaper, int n) {
        RunningShaper.await(n + " exchanges logged", BOUND, () -> shaper.logLines(" exchange ").size() >= n);
        return shaper.logLines(" exchange ");
    }
}
