package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Hostile input gets a clean 4xx (or a close), never a 500 or a stack trace; a connection that
 * sends its request head slower than -header-read-timeout is closed without harming normal traffic.
 */
class HostileInputTest {
    private static final String[] MALFORMED = {
        "G(T / HTTP/1.1\r\nHost: x\r\n\r\n",
        "G\u00e9T / HTTP/1.1\r\nHost: x\r\n\r\n",
        "G\u0001T / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
        "GET / HTTP/9.9\r\nHost: x\r\n\r\n",
        "GET\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\n X: folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX: \u0001\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    };

    @Test
    void malformedRequestsGetA4xxOrACloseAndNoStackTrace() throws Exception {
        // Helidon logs through JUL, not through the proxy's own streams: listen there
        java.util.List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler listener = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    logged.add(r.getMessage() + (r.getThrown() == null ? "" : " " + r.getThrown()));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger helidon = java.util.logging.Logger.getLogger("io.helidon");
        helidon.addHandler(listener);
        try (ScriptedUpstream up = ScriptedUpstream.ok("fine");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            for (String request : MALFORMED) {
                int status = statusOf(shaper.port(), request);
                String shown = request.split("\r\n")[0] + " ...";
                assertTrue(status == 0 || (status >= 400 && status < 500), shown + " answered " + status);
            }
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /fine HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status(), "normal traffic is unharmed");
            }
            assertFalse(shaper.stderr().contains("\tat "), shaper.stderr());
        } finally {
            helidon.removeHandler(listener);
        }
        assertTrue(logged.isEmpty(), "Helidon logged: " + logged);
    }

    @Test
    void slowRequestHeadIsClosedAfterTheHeaderReadTimeout() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("fine");
             RunningShaper shaper = RunningShaper.start("-header-read-timeout", "2s", "-upstream", up.url())) {
            try (RawHttp slow = new RawHttp(shaper.port())) {
                slow.socket().setSoTimeout(15_000);
                slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n");
                long start = System.nanoTime();
                InputStream in = slow.in();
                int read;
                try {
                    // one header byte at a time, far slower than the bound
                    for (int i = 0; i < 200; i++) {
                        slow.send("X");
                        slow.socket().setSoTimeout(100);
                        try {
                            read = in.read();
                            if (read < 0) {
                                break;
                            }
                        } catch (java.net.SocketTimeoutException stillOpen) {
                            // the proxy is still waiting for the head
                        }
                    }
                } catch (SocketException closed) {
                    // reset by the proxy: closed
                }
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertTrue(took.compareTo(Duration.ofSeconds(8)) < 0, "slow head cut after " + took);
                assertTrue(took.compareTo(Duration.ofMillis(900)) > 0, "cut before the bound: " + took);
            }
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /fine HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status(), "normal traffic is unharmed");
            }
        }
    }

    /** The response status, or 0 when the proxy closed without answering. */
    private static int statusOf(int port, String request) throws IOException {
        try (RawHttp raw = new RawHttp(port)) {
            raw.socket().setSoTimeout(5_000);
            raw.socket().getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            try {
                return raw.readHead().status();
            } catch (IOException closed) {
                return 0;
            }
        }
    }
}
