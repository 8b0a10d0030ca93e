package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.breaker.BreakerState;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** Transcoded streams over real sockets: events flushed as produced, cuts and corrupt frames end in one error event. */
class TranscodeStreamingProxyTest {
    private static String request(String body) {
        return "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    /** Reads chunks until {@code needle} has been seen; the text read so far. */
    private static String readUntil(RawHttp raw, StringBuilder seen, String needle) throws IOException {
        while (!seen.toString().contains(needle)) {
            String chunk = raw.readChunk();
            if (chunk == null) {
                break;
            }
            seen.append(chunk);
        }
        return seen.toString();
    }

    @Test
    void eachConvertedEventReachesTheClientBeforeTheUpstreamSendsTheNextChunk() throws Exception {
        String[] words = {"one", "two", "three"};
        CountDownLatch[] seen = new CountDownLatch[words.length];
        for (int i = 0; i < words.length; i++) {
            seen[i] = new CountDownLatch(1);
        }
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < words.length; i++) {
                    ex.chunk(ChatStreamTest.chunk("{\"content\":\"" + words[i] + "\"}", "null"));
                    if (!seen[i].await(10, TimeUnit.SECONDS)) {
                        throw new IOException("the client never saw " + words[i]);
                    }
                }
                ex.chunk(ChatStreamTest.chunk("{}", "\"stop\"") + ChatStreamTest.USAGE + ChatStreamTest.DONE);
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat");
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send(request(ChatStreamTest.REQ));
            RawHttp.Head head = raw.readHead();
            assertEquals(200, head.status());
            assertTrue(head.header("Content-Type").startsWith("text/event-stream"));
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < words.length; i++) {
                String s = readUntil(raw, text, "\"text\":\"" + words[i] + "\"");
                assertTrue(s.contains("\"text\":\"" + words[i] + "\""), s);
                seen[i].countDown();
            }
            String all = readUntil(raw, text, "event: message_stop");
            assertTrue(all.startsWith("event: message_start\n"), all);
            assertEquals(1, all.split("event: message_stop", -1).length - 1, all);
            assertTrue(all.contains("\"stop_reason\":\"end_turn\""), all);
            assertTrue(all.contains("\"input_tokens\":15"), all);
        }
    }

    @Test
    void anUpstreamCutBeforeAFinishReasonEndsInAnErrorEventNeverMessageStop() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk(ChatStreamTest.chunk("{\"content\":\"partial\"}", "null"));
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "0", "-cb-threshold", "1",
                     "-cb-open-timeout", "1m");
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send(request(ChatStreamTest.REQ));
            assertEquals(200, raw.readHead().status());
            String all = readUntil(raw, new StringBuilder(), "event: error");
            assertTrue(all.contains("\"text\":\"partial\""), all);
            assertTrue(all.contains("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":"
                    + "\"upstream stream ended before a finish reason\"}}"), all);
            assertFalse(all.contains("message_stop"), all);
            RunningShaper.await("the cut counts against the breaker", Duration.ofSeconds(5),
                    () -> shaper.server().breaker("default").state() == BreakerState.OPEN);
        }
    }

    @Test
    void aStreamAnsweredWithJsonForANonStreamingRequestIs502() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk(ChatStreamTest.chunk("{\"content\":\"x\"}", "\"stop\"") + ChatStreamTest.DONE);
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "0")) {
            var r = TranscodeProxyTest.post(shaper, "/v1/messages", TranscodeProxyTest.MESSAGES);
            assertEquals(502, r.statusCode());
            assertEquals("upstream returned a stream for a non-streaming request",
                    TranscodeProxyTest.json(r.body()).get("error").get("message").asText());
        }
    }

    @Test
    void anEarlyErrorFrameIsRetriedAndTheRetriedStreamIsConverted() throws Exception {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                if (n.getAndIncrement() == 0) {
                    ex.chunk("data: {\"error\":{\"message\":\"Upstream service unavailable\",\"type\":\"server_error\"}}\n\n");
                } else {
                    ex.chunk(ChatStreamTest.chunk("{\"content\":\"recovered\"}", "null") + ChatStreamTest.chunk("{}", "\"stop\"")
                            + ChatStreamTest.DONE);
                }
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "2",
                     "-retry-wait-min", "10ms", "-retry-wait-max", "20ms", "-retry-keepalive", "0");
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send(request(ChatStreamTest.REQ));
            assertEquals(200, raw.readHead().status());
            String all = readUntil(raw, new StringBuilder(), "event: message_stop");
            assertTrue(all.contains("\"text\":\"recovered\""), all);
            assertFalse(all.contains("Upstream service unavailable"), all);
            assertEquals(2, up.requests().size());
        }
    }
}
