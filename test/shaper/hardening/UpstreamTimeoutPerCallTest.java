package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * {@code -upstream-timeout} bounds each upstream call including its body (the spec's meaning), not
 * each wait for bytes: a stream that keeps trickling is cut when the call outlives the bound.
 */
class UpstreamTimeoutPerCallTest {

    @Test
    void streamOutlivingTheUpstreamTimeoutIsCutAndCountedAborted() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < 600; i++) {
                    ex.chunk("data: tick " + i + "\n\n");
                    Thread.sleep(100); // every read is quick; the call as a whole is not
                }
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-upstream-timeout", "1500ms")) {
            long start = System.nanoTime();
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.socket().setSoTimeout(20_000);
                raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 15\r\n\r\n{\"stream\":true}");
                assertEquals(200, raw.readHead().status());
                assertThrows(IOException.class, () -> {
                    while (raw.readChunk() != null) {
                        // until the proxy cuts the stream: no terminating chunk
                    }
                });
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(Duration.ofSeconds(1)) > 0 && took.compareTo(Duration.ofSeconds(8)) < 0,
                    "stream cut after " + took);
            RunningShaper.await("exchange logged", Duration.ofSeconds(5), () -> !shaper.logLines("path=/v1/messages").isEmpty());
            assertTrue(shaper.logLines("path=/v1/messages").getFirst().contains("outcome=aborted"));
        }
    }
}
