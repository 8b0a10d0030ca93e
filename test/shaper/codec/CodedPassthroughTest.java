package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import shaper.testing.Codings;
import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A coded request body on a passthrough route reaches the upstream as it left the client: the
 * same bytes, the same {@code Content-Encoding}, the same framing, whatever the coding (one the
 * proxy could decode, several, or one nobody registered), on the first attempt and on a replay.
 */
class CodedPassthroughTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final byte[] PLAIN = "{\"model\":\"m\",\"stream\":false,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
            .repeat(30).getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "x-gzip", "deflate", "br", "zstd", "gzip, zstd", "x-snappy-framed", "GZIP"})
    void theBodyAndItsHeaderArriveUnchanged(String encoding) throws Exception {
        byte[] body = coded(encoding);
        try (ScriptedUpstream up = ScriptedUpstream.ok("{\"ok\":true}");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages"))
                    .header("Content-Type", "application/json").header("Content-Encoding", encoding)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            RecordedRequest seen = up.onlyRequest();
            assertArrayEquals(body, seen.body());
            assertEquals(List.of(encoding), seen.values("Content-Encoding"));
            assertEquals(Integer.toString(body.length), seen.header("Content-Length"));
            assertFalse(seen.chunked());
        }
    }

    @Test
    void aChunkedCodedBodyStaysChunkedAndEverySeparateFieldLineIsKept() throws Exception {
        byte[] body = Codings.zstd(Codings.gzip(PLAIN));
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            ByteArrayOutputStream req = new ByteArrayOutputStream();
            req.writeBytes(("POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Encoding: gzip\r\nContent-Encoding: zstd\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            req.writeBytes(body);
            req.writeBytes("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            raw.send(req.toString(StandardCharsets.ISO_8859_1));
            assertEquals(200, raw.readHead().status());
            RecordedRequest seen = up.onlyRequest();
            assertTrue(seen.chunked());
            assertNull(seen.header("Content-Length"));
            assertArrayEquals(body, seen.body());
            assertEquals(List.of("gzip", "zstd"), seen.values("Content-Encoding"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "deflate", "br", "zstd", "x-unheard-of"})
    void aReplayedRetrySendsTheSameBytes(String encoding) throws Exception {
        byte[] body = coded(encoding);
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (calls.incrementAndGet() == 1) {
                    ex.respond(503, "{\"error\":\"busy\"}", "Content-Type: application/json");
                } else {
                    ex.respond(200, "{\"ok\":true}", "Content-Type: application/json");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "2", "-retry-wait-min", "5ms",
                     "-retry-wait-max", "20ms", "-retry-min-delay", "0", "-cb-threshold", "1000")) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/chat/completions"))
                    .header("Content-Type", "application/json").header("Content-Encoding", encoding)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            List<RecordedRequest> seen = up.requests();
            assertEquals(2, seen.size());
            for (RecordedRequest attempt : seen) {
                assertArrayEquals(body, attempt.body());
                assertEquals(List.of(encoding), attempt.values("Content-Encoding"));
                assertEquals(Integer.toString(body.length), attempt.header("Content-Length"));
            }
        }
    }

    /** The body coded as the header says; an unknown coding's body is just bytes the proxy cannot read. */
    private static byte[] coded(String encoding) {
        byte[] b = PLAIN;
        for (String token : encoding.toLowerCase().split(",\\s*")) {
            b = token.startsWith("x-") && !token.equals("x-gzip") ? Codings.gzip(b) : Codings.encode(token, b);
        }
        return b;
    }
}
