package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import com.github.luben.zstd.Zstd;

import shaper.testing.Codings;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Stale-reasoning recovery reads a coded body: the carriers are found in the decoded JSON and the
 * replay goes upstream uncompressed, without {@code Content-Encoding}, with its own length. A
 * body it cannot decode has nothing to strip: the upstream's 400 reaches the client.
 */
class CodedStaleReasoningTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String REQUEST = "{\"model\":\"m\",\"temperature\":0.1,\"messages\":[{\"role\":\"assistant\",\"content\":["
            + "{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"ccswitch-openai-reasoning-abc\"},{\"type\":\"text\",\"text\":\"hello\"}]},"
            + "{\"role\":\"user\",\"content\":\"next\"}]}";
    private static final String MISMATCH = "{\"error\":{\"message\":\"The encrypted content for item rs_1 could not be verified.\","
            + "\"type\":\"invalid_request_error\",\"code\":\"invalid_encrypted_content\"}}";

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "zstd"})
    void aCodedBodyIsStrippedAndReplayedUncompressed(String coding) throws Exception {
        byte[] coded = Codings.encode(coding, REQUEST.getBytes(StandardCharsets.UTF_8));
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (decoded(req).contains("ccswitch-openai-reasoning-")) {
                    ex.respond(400, MISMATCH, "Content-Type: application/json");
                } else {
                    ex.respond(200, "{\"ok\":true}", "Content-Type: application/json");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "2")) {
            HttpResponse<String> r = post(shaper, coded, coding);
            assertEquals(200, r.statusCode(), r.body());
            List<RecordedRequest> seen = up.requests();
            assertEquals(2, seen.size());
            assertArrayEquals(coded, seen.get(0).body(), "the first attempt is the client's bytes");
            assertEquals(List.of(coding), seen.get(0).values("Content-Encoding"));
            RecordedRequest replay = seen.get(1);
            assertFalse(replay.has("Content-Encoding"), replay.names().toString());
            String text = replay.bodyText();
            assertFalse(text.contains("ccswitch-openai-reasoning-"), text);
            assertTrue(text.contains("\"temperature\":0.1") && text.contains("\"text\":\"hello\""), text);
            assertEquals(Integer.toString(replay.body().length), replay.header("Content-Length"));
        }
    }

    @Test
    void aBodyItCannotDecodeGetsTheUpstreams400() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(400, MISMATCH, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "2")) {
            HttpResponse<String> r = post(shaper, Codings.gzip(REQUEST.getBytes(StandardCharsets.UTF_8)), "x-unheard-of");
            assertEquals(400, r.statusCode());
            assertEquals(MISMATCH, r.body());
            assertEquals(1, up.requests().size());
        }
    }

    private static HttpResponse<String> post(RunningShaper shaper, byte[] body, String coding) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).header("Content-Type", "application/json")
                .header("Content-Encoding", coding).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The upstream's own reading of the body (JDK gzip, zstd-jni), independent of the proxy's decoder. */
    private static String decoded(RecordedRequest req) throws IOException {
        String coding = req.header("Content-Encoding");
        byte[] b = req.body();
        if ("gzip".equals(coding)) {
            b = new GZIPInputStream(new ByteArrayInputStream(b)).readAllBytes();
        } else if ("zstd".equals(coding)) {
            b = Zstd.decompress(b, 1 << 20);
        }
        return new String(b, StandardCharsets.UTF_8);
    }
}
