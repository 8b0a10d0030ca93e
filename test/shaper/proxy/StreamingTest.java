package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.observe.ExchangeCounters;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** Bodies stream through as they arrive, and a broken side aborts the whole exchange. */
class StreamingTest {

    @Test
    void eachSseEventReachesTheClientBeforeTheUpstreamSendsTheNext() throws Exception {
        int events = 5;
        CountDownLatch[] received = new CountDownLatch[events];
        for (int i = 0; i < events; i++) {
            received[i] = new CountDownLatch(1);
        }
        // The upstream only sends event i+1 after the client has seen event i: without a flush per
        // event the client would wait forever (bounded by the latch timeout) and the test fails.
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < events; i++) {
                    ex.chunk("event: delta\ndata: {\"n\":" + i + "}\n\n");
                    if (!received[i].await(5, TimeUnit.SECONDS)) {
                        throw new IOException("client never saw event " + i);
                    }
                }
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nContent-Length: 2\r\n\r\n{}");
                RawHttp.Head head = raw.readHead();
                assertEquals(200, head.status());
                assertEquals("text/event-stream", head.header("Content-Type"));
                StringBuilder seen = new StringBuilder();
                int next = 0;
                while (next < events) {
                    String chunk = raw.readChunk();
                    assertTrue(chunk != null, "stream ended early after: " + seen);
                    seen.append(chunk);
                    while (next < events && seen.toString().contains("{\"n\":" + next + "}\n\n")) {
                        received[next++].countDown();
                    }
                }
                while (raw.readChunk() != null) {
                    // drain to the terminating chunk
                }
            }
            RunningShaper.await("clean exchange counted", Duration.ofSeconds(5),
                    () -> shaper.server().counters("default").snapshot().cleanProxied() == 1);
        }
    }

    @Test
    void clientLeavingMidStreamAbortsTheUpstreamPromptlyAndCountsAborted() throws Exception {
        CountDownLatch firstSent = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < 2_000; i++) { // bounded: 2,000 × 5 ms at most
                    ex.chunk("data: tick " + i + "\n\n");
                    firstSent.countDown();
                    Thread.sleep(5); // the upstream's own pacing, not test synchronisation
                }
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/stream HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                assertTrue(raw.readChunk().startsWith("data: tick"));
                raw.socket().setSoLinger(true, 0);
            }
            assertTrue(firstSent.await(5, TimeUnit.SECONDS));
            RunningShaper.await("upstream write fails after the proxy drops the connection", Duration.ofSeconds(5),
                    () -> up.failedWrites() == 1);
            RunningShaper.await("aborted exchange counted", Duration.ofSeconds(5),
                    () -> shaper.server().counters("default").snapshot().aborted() == 1);
            ExchangeCounters.Snapshot s = shaper.server().counters("default").snapshot();
            assertEquals(0, s.cleanPassthrough(), "an aborted stream is never clean");
            assertEquals(1, s.status(2), "the committed 200 still counts in its bucket");
            RunningShaper.await("exchange logged", Duration.ofSeconds(5), () -> !shaper.logLines("path=/v1/stream").isEmpty());
            assertTrue(shaper.logLines("path=/v1/stream").getFirst().contains("outcome=aborted"));
        }
    }

    @Test
    void upstreamResetMidBodyNeverLooksCompleteToTheClient() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: application/json", "Content-Length: 1000");
                ex.write("{\"partial\":");
                ex.reset();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Head head = raw.readHead();
                assertEquals(200, head.status());
                assertEquals("1000", head.header("Content-Length"));
                String body = readUntilClosed(raw);
                assertTrue(body.length() < 1000, "the client must see a truncated body, got " + body.length());
            }
            RunningShaper.await("aborted counted", Duration.ofSeconds(5),
                    () -> shaper.server().counters("default").snapshot().aborted() == 1);
        }
    }

    @Test
    void upstreamResetMidChunkedBodyClosesTheClientWithoutTheFinalChunk() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk("data: one\n\n");
                ex.reset();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                assertEquals("data: one\n\n", raw.readChunk());
                assertThrows(IOException.class, raw::readChunk, "no terminating chunk may follow a broken upstream");
            }
            RunningShaper.await("aborted counted", Duration.ofSeconds(5),
                    () -> shaper.server().counters("default").snapshot().aborted() == 1);
        }
    }

    private static String readUntilClosed(RawHttp raw) {
        StringBuilder sb = new StringBuilder();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(raw.in(), StandardCharsets.UTF_8));
            int c;
            while ((c = r.read()) >= 0) {
                sb.append((char) c);
            }
        } catch (IOException e) {
            // a reset is as good as a close here
        }
        return sb.toString();
    }
}
