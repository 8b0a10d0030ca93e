package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import shaper.testing.Codings;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The proxy's other look into a body, the {@code "stream"} flag that decides retry keepalives,
 * reads a compressed body decoded: a zstd {@code "stream":true} request waiting on backoff gets
 * the dialect's keepalives, as a plain one does.
 */
class CodedStreamFlagTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String GOOD = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
            + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    @Test
    void aCompressedStreamingRequestGetsKeepalivesDuringBackoff() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (calls.incrementAndGet() == 1) {
                    ex.respond(503, "{\"error\":\"busy\"}", "Content-Type: application/json");
                } else {
                    ex.respond(200, GOOD, "Content-Type: text/event-stream");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "2", "-retry-wait-min", "400ms",
                     "-retry-wait-max", "400ms", "-retry-keepalive", "50ms", "-cb-threshold", "1000")) {
            byte[] body = Codings.zstd("{\"model\":\"m\",\"stream\":true,\"messages\":[]}".getBytes(StandardCharsets.UTF_8));
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).header("Accept", "text/event-stream")
                    .header("Content-Type", "application/json").header("Content-Encoding", "zstd")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertTrue(r.body().startsWith("event: ping\ndata: {\"type\": \"ping\"}\n\n"), r.body());
            assertTrue(r.body().endsWith(GOOD), r.body());
            assertEquals(2, calls.get());
        }
    }
}
