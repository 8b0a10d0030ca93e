package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** A client's own {@code Connection: close} ends its connection after the complete response. */
class ClientConnectionCloseTest {
    @Test
    void connectionCloseFromTheClientClosesAfterTheWholeResponse() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (req.target().contains("stream")) {
                    ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                    ex.chunk("data: one\n\n");
                    ex.chunk("data: two\n\n");
                    ex.endChunks();
                } else {
                    ex.respond(200, "hello");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.socket().setSoTimeout(5_000);
                raw.send("GET /v1/stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                assertEquals("data: one\n\n", raw.readChunk());
                assertEquals("data: two\n\n", raw.readChunk());
                assertEquals(null, raw.readChunk(), "the terminating chunk comes before the close");
                assertEquals("", raw.readToEnd(), "then the connection closes");
            }
            for (String path : new String[] {"/__shaper/health", "/fixed"}) {
                try (RawHttp raw = new RawHttp(shaper.port())) {
                    raw.socket().setSoTimeout(5_000);
                    raw.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                    String all = raw.readToEnd();
                    assertTrue(all.startsWith("HTTP/1.1 200"), all);
                    assertTrue(all.endsWith(path.contains("health") ? "]}" : "hello"), all);
                }
            }
        }
    }
}
