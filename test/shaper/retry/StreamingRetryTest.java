package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.retry.ProxyRetryTest.shaper;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** Early SSE errors under HTTP 200, streaming retries with keepalives, and exhaustion in the client's envelope. */
class StreamingRetryTest {
    private static final String OVERLOADED = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    private static final String GOOD = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n"
            + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    /** An upstream whose first {@code failures} answers are a 200 stream opening with an overloaded error. */
    private static ScriptedUpstream earlyErrors(int failures, AtomicInteger calls) {
        return ScriptedUpstream.start((req, ex) -> {
            ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
            if (calls.incrementAndGet() <= failures) {
                ex.chunk("event: message_start\ndata: {\"type\":\"message_start\"}\n\n" + OVERLOADED);
            } else {
                ex.chunk(GOOD);
            }
            ex.endChunks();
        });
    }

    private static HttpResponse<String> stream(RunningShaper shaper, String path) throws Exception {
        return ProxyRetryTest.CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).header("Accept", "text/event-stream")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"stream\":true}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void streamOpeningWithAnOverloadedErrorIsRetriedAndTheClientSeesOnlyTheGoodStream() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = earlyErrors(2, calls);
             RunningShaper shaper = shaper(up.url())) {
            HttpResponse<String> r = stream(shaper, "/v1/messages");
            assertEquals(200, r.statusCode());
            assertEquals(GOOD, r.body());
            assertEquals(3, calls.get());
        }
    }

    @Test
    void keepalivesFlowDuringBackoffInTheClientsDialect() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = earlyErrors(1, calls);
             RunningShaper shaper = shaper(up.url(), "-retry-wait-min", "400ms", "-retry-wait-max", "400ms", "-retry-keepalive", "50ms")) {
            HttpResponse<String> messages = stream(shaper, "/v1/messages");
            assertEquals(200, messages.statusCode());
            assertTrue(messages.body().startsWith("event: ping\ndata: {\"type\": \"ping\"}\n\n"), messages.body());
            assertTrue(messages.body().endsWith(GOOD), "keepalives stop before the recovered stream");
            calls.set(0);
            HttpResponse<String> chat = stream(shaper, "/v1/chat/completions");
            assertTrue(chat.body().startsWith(": keepalive\n\n"), chat.body());
            assertFalse(chat.body().contains("event: ping"));
        }
    }

    @Test
    void exhaustedStreamingRetriesEndWithAnErrorEventInTheClientsEnvelope() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = earlyErrors(100, calls);
             RunningShaper shaper = shaper(up.url(), "-retry", "2", "-retry-keepalive", "10ms")) {
            String messages = stream(shaper, "/v1/messages").body();
            JsonNode m = lastData(messages, "event: error");
            assertEquals("error", m.get("type").asText());
            assertEquals("overloaded_error", m.get("error").get("type").asText());
            assertEquals("Overloaded", m.get("error").get("message").asText());
            assertFalse(messages.contains("message_start"), "a buffered lifecycle preamble is never shown");

            JsonNode responses = lastData(stream(shaper, "/v1/responses").body(), "event: response.failed");
            assertEquals("failed", responses.get("response").get("status").asText());
            assertEquals("Overloaded", responses.get("response").get("error").get("message").asText());

            String chat = stream(shaper, "/v1/chat/completions").body();
            JsonNode c = lastData(chat, "data: {\"error\"");
            assertEquals("Overloaded", c.get("error").get("message").asText());
            assertFalse(chat.contains("event:"), "chat completions errors are data-only");
        }
    }

    @Test
    void keepaliveZeroNeverCommitsEarlySoExhaustionKeepsItsHttpStatus() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(529,
                "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
             RunningShaper shaper = shaper(up.url(), "-retry", "2", "-retry-keepalive", "0")) {
            HttpResponse<String> r = stream(shaper, "/v1/messages");
            assertEquals(529, r.statusCode(), "no early 200: the client gets the upstream's own error");
            assertTrue(r.body().contains("Overloaded"));
            assertEquals(3, up.requests().size());
        }
    }

    @Test
    void errorsAfterOutputStartedAreNeverRetried() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String late = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n"
                + OVERLOADED;
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                calls.incrementAndGet();
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk(late);
                ex.endChunks();
            });
             RunningShaper shaper = shaper(up.url())) {
            assertEquals(late, stream(shaper, "/v1/messages").body());
            assertEquals(1, calls.get());
        }
    }

    @Test
    void compressedStreamsAreDecodedForInspectionAndForwardedDecoded() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                byte[] gz = gzip(calls.incrementAndGet() == 1 ? OVERLOADED : GOOD);
                ex.head(200, "Content-Type: text/event-stream", "Content-Encoding: gzip", "Content-Length: " + gz.length);
                ex.write(gz);
            });
             RunningShaper shaper = shaper(up.url())) {
            HttpResponse<String> r = stream(shaper, "/v1/messages");
            assertEquals(GOOD, r.body());
            assertTrue(r.headers().firstValue("content-encoding").isEmpty(), "the encoding goes with the decoding");
            assertEquals(2, calls.get());
        }
    }

    @Test
    void flakySseFixtureRecoversThroughTheProxy() throws Exception {
        var probe = shaper.probe.ProbeServer.start(shaper.probe.ProbeConfig.defaults(0));
        try (RunningShaper shaper = shaper("http://127.0.0.1:" + probe.port() + "/flakysse200")) {
            HttpResponse<String> r = stream(shaper, "/v1/messages");
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("message_stop") && !r.body().contains("Upstream service unavailable"), r.body());
        } finally {
            probe.stop();
        }
    }

    private static JsonNode lastData(String body, String marker) throws Exception {
        int at = body.lastIndexOf(marker);
        assertTrue(at >= 0, "no " + marker + " in " + body);
        String rest = body.substring(at);
        int data = rest.indexOf("data: ");
        String json = rest.substring(data + 6, rest.indexOf('\n', data));
        return new ObjectMapper().readTree(json);
    }

    private static byte[] gzip(String s) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(s.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
