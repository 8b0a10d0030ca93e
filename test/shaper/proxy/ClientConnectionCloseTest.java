package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** A client's own {@code Connection: close} ends its connection after the response, whatever the body framing. */
class ClientConnectionCloseTest {
    @Test
    void connectionCloseFromTheClientClosesAfterTheResponse() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (req.target().contains("chunked")) {
                    ex.head(200, "Transfer-Encoding: chunked");
                    ex.chunk("hello");
                    ex.endChunks();
                } else {
                    ex.respond(200, "hello");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            for (String path : new String[] {"/__shaper/health", "/fixed", "/chunked"}) {
                try (RawHttp raw = new RawHttp(shaper.port())) {
                    raw.socket().setSoTimeout(5_000);
                    raw.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                    String all = raw.readToEnd();
                    assertTrue(all.startsWith("HTTP/1.1 200"), all);
                    assertTrue(all.contains(path.contains("health") ? "ai-concurrency-shaper" : "hello"), all);
                }
            }
            assertEquals(2, up.requests().size());
        }
    }
}
