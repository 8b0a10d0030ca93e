package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.RunningShaper;

/** {@code -transcode-messages-responses} over sockets against the ProbeServer's Responses fixture. */
class MessagesResponsesProxyTest {
    private static final String REPLY = "Hello from the Responses fixture.";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static ProbeServer probe;
    private static RunningShaper shaper;

    @BeforeAll
    static void start() {
        ProbeConfig d = ProbeConfig.defaults(0);
        probe = ProbeServer.start(d.withReply(REPLY));
        shaper = RunningShaper.start("-upstream", probe.uri("/responses").toString(), "-transcode-messages-responses",
                "-transcode-allow-loss", "tool_schema_strictness");
    }

    @AfterAll
    static void stop() {
        if (shaper != null) {
            shaper.close();
        }
        if (probe != null) {
            probe.stop();
        }
    }

    private static HttpResponse<String> messages(String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages?beta=true")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("anthropic-version", "2023-06-01").header("x-api-key", "dummy")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<JsonNode> events(String sse) {
        List<JsonNode> out = new ArrayList<>();
        for (String frame : sse.split("\n\n")) {
            String name = null;
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    JsonNode json = ResponsesFixtures.json(ResponsesFixtures.bytes(line.substring(6)));
                    assertEquals(name, json.path("type").asText());
                    out.add(json);
                }
            }
        }
        return out;
    }

    private static String body(String text, boolean stream) {
        return "{\"model\":\"claude-sonnet\",\"max_tokens\":256,\"stream\":" + stream + ",\"system\":\"You are helpful.\","
                + "\"tools\":[{\"name\":\"Bash\",\"description\":\"run\",\"input_schema\":{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"}}}}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    @Test
    void streamedTextBecomesTheAnthropicLifecycle() throws Exception {
        HttpResponse<String> res = messages(body("hi", true));
        assertEquals(200, res.statusCode(), res.body());
        List<JsonNode> events = events(res.body());
        assertEquals("message_start", events.get(0).path("type").asText());
        assertEquals("message_stop", events.get(events.size() - 1).path("type").asText());
        String text = events.stream().filter(e -> e.path("delta").path("type").asText().equals("text_delta"))
                .map(e -> e.path("delta").path("text").asText()).reduce("", String::concat);
        assertEquals(REPLY, text);
        assertTrue(probe.stats().snapshot().hits("/responses/v1/responses") >= 1);
    }

    @Test
    void dataOnlyStreamWithARepeatedTerminalAndAToolCall() throws Exception {
        HttpResponse<String> res = messages(body("[[dataonly]] [[reason]] please [[bash:ls -1]]", true));
        assertEquals(200, res.statusCode(), res.body());
        List<JsonNode> events = events(res.body());
        assertEquals(1, events.stream().filter(e -> e.path("type").asText().equals("message_stop")).count());
        List<String> blocks = events.stream().filter(e -> e.path("type").asText().equals("content_block_start"))
                .map(e -> e.path("content_block").path("type").asText()).toList();
        assertEquals(List.of("thinking", "tool_use"), blocks);
        String args = events.stream().filter(e -> e.path("delta").path("type").asText().equals("input_json_delta"))
                .map(e -> e.path("delta").path("partial_json").asText()).reduce("", String::concat);
        assertEquals("ls -1", ResponsesFixtures.json(ResponsesFixtures.bytes(args)).path("command").asText());
        JsonNode delta = events.stream().filter(e -> e.path("type").asText().equals("message_delta")).findFirst().orElseThrow();
        assertEquals("tool_use", delta.path("delta").path("stop_reason").asText());
    }

    @Test
    void toolResultRoundTripAndNonStreamingAnswer() throws Exception {
        String body = "{\"model\":\"claude-sonnet\",\"max_tokens\":256,\"messages\":[{\"role\":\"user\",\"content\":\"run it\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\",\"content\":\"a.txt\"}]}]}";
        HttpResponse<String> res = messages(body);
        assertEquals(200, res.statusCode(), res.body());
        JsonNode m = ResponsesFixtures.json(ResponsesFixtures.bytes(res.body()));
        assertEquals("message", m.path("type").asText());
        assertEquals("tool said: a.txt", m.path("content").get(0).path("text").asText());
        assertEquals("end_turn", m.path("stop_reason").asText());
        assertTrue(m.path("usage").path("input_tokens").asInt() > 0);
    }
}
