package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.Codings;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A coded request on a transcoded route is decoded before conversion and goes upstream as plain
 * JSON without {@code Content-Encoding}; a body that cannot be decoded is answered locally in the
 * client's dialect (413 bomb, 400 corrupt, 415 unknown coding), reaches no upstream, is one
 * exchange and one log line, and leaves no slot behind.
 */
class CodedTranscodeTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String MESSAGES = "{\"model\":\"claude-x\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"compressed hi\"}]}";
    static final String RESPONSES = "{\"model\":\"gpt-x\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"compressed hi\"}]}]}";
    static final String CHAT_ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"hello back\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,\"total_tokens\":7}}";
    static final String RESPONSES_ANSWER = "{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,\"status\":\"completed\",\"model\":\"m\","
            + "\"output\":[{\"type\":\"message\",\"id\":\"msg_1\",\"role\":\"assistant\",\"status\":\"completed\",\"content\":"
            + "[{\"type\":\"output_text\",\"text\":\"hello back\",\"annotations\":[]}]}],"
            + "\"usage\":{\"input_tokens\":5,\"output_tokens\":2,\"total_tokens\":7}}";

    static HttpResponse<String> post(RunningShaper shaper, String path, byte[] body, String encoding) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(shaper.uri(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (encoding != null) {
            b.header("Content-Encoding", encoding);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "zstd", "br", "deflate"})
    void aCodedMessagesRequestIsConvertedToChatAndSentPlain(String coding) throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, CHAT_ANSWER, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat")) {
            HttpResponse<String> r = post(shaper, "/v1/messages", Codings.encode(coding, MESSAGES.getBytes(StandardCharsets.UTF_8)), coding);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("hello back", JSON.readTree(r.body()).path("content").path(0).path("text").asText());
            RecordedRequest seen = up.onlyRequest();
            assertEquals("/v1/chat/completions", seen.target());
            assertSentPlain(seen);
            assertEquals("compressed hi", JSON.readTree(seen.body()).path("messages").path(0).path("content").asText());
        }
    }

    @Test
    void aZstdMessagesRequestIsConvertedToResponsesAndSentPlain() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, RESPONSES_ANSWER, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-responses",
                     "-transcode-allow-loss", "tool_schema_strictness")) {
            byte[] body = Codings.zstd(Codings.gzip(MESSAGES.getBytes(StandardCharsets.UTF_8)));
            HttpResponse<String> r = post(shaper, "/v1/messages", body, "gzip, zstd");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("hello back", JSON.readTree(r.body()).path("content").path(0).path("text").asText());
            RecordedRequest seen = up.onlyRequest();
            assertEquals("/v1/responses", seen.target());
            assertSentPlain(seen);
            assertTrue(seen.bodyText().contains("compressed hi"), seen.bodyText());
        }
    }

    /** Bomb, corrupt data and an unknown coding, each on a Messages and on a Responses client route. */
    @Test
    void undecodableBodiesAreAnsweredInTheClientsDialectLoggedOnceAndLeaveNoSlot() throws Exception {
        byte[] bomb = Codings.zstd(Codings.zeros(8 << 20)); // 8 MiB decoded, over a 1 MiB bound
        byte[] corrupt = java.util.Arrays.copyOf(Codings.gzip(MESSAGES.getBytes(StandardCharsets.UTF_8)), 20);
        byte[] unknown = MESSAGES.getBytes(StandardCharsets.UTF_8);
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}");
             RunningShaper messages = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat",
                     "-transcode-max-request-mb", "1", "-limit-all", "-concurrency", "1");
             RunningShaper responses = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat",
                     "-transcode-max-request-mb", "1", "-limit-all", "-concurrency", "1")) {
            Object[][] cases = {{bomb, "zstd", 413}, {corrupt, "gzip", 400}, {unknown, "compress", 415}};
            for (Object[] c : cases) {
                HttpResponse<String> m = post(messages, "/v1/messages", (byte[]) c[0], (String) c[1]);
                assertEquals(c[2], m.statusCode(), m.body());
                JsonNode me = JSON.readTree(m.body());
                assertEquals("error", me.path("type").asText(), m.body());
                assertEquals((int) c[2] == 413 ? "request_too_large" : "invalid_request_error", me.path("error").path("type").asText());
                HttpResponse<String> r = post(responses, "/v1/responses", (byte[]) c[0], (String) c[1]);
                assertEquals(c[2], r.statusCode(), r.body());
                JsonNode re = JSON.readTree(r.body()).path("error");
                assertEquals("invalid_request_error", re.path("type").asText(), r.body());
                assertFalse(re.path("message").asText().isEmpty(), r.body());
            }
            assertTrue(JSON.readTree(post(responses, "/v1/responses", unknown, "compress").body())
                    .path("error").path("message").asText().contains("\"compress\""));
            assertEquals(0, up.requests().size(), "nothing reached the upstream");
            for (RunningShaper s : List.of(messages, responses)) {
                String path = s == messages ? "/v1/messages" : "/v1/responses";
                int expected = s == messages ? 3 : 4;
                RunningShaper.await("every refusal logged", Duration.ofSeconds(5),
                        () -> s.logLines("exchange provider=default method=POST path=" + path + " status=4").size() >= expected);
                assertEquals(expected, s.logLines("exchange provider=default method=POST path=" + path + " status=4").size(), s.stdout());
                assertEquals(expected, s.server().counters("default").snapshot().status(4), "each refusal counted once");
                assertTrue(s.server().limiters("default").stream().allMatch(l -> l.inUse() == 0 && l.waiters() == 0),
                        s.server().limiters("default").toString());
            }
        }
    }

    private static void assertSentPlain(RecordedRequest seen) throws Exception {
        assertFalse(seen.has("Content-Encoding"), "the converted body is plain JSON: " + seen.names());
        assertEquals(Integer.toString(seen.body().length), seen.header("Content-Length"));
        JSON.readTree(seen.body()); // parses as JSON
    }
}
