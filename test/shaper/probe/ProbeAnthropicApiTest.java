package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code /v1/*} answers in the shapes of the Anthropic Messages API, which Claude Code relies on. */
class ProbeAnthropicApiTest {
    private static final String BODY = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":64,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";

    @Test
    void messageWithoutStreamIsOneJsonDocument() {
        try (RunningProbe probe = RunningProbe.start()) {
            HttpResponse<String> r = probe.post("/v1/messages", BODY);
            assertEquals(200, r.statusCode());
            assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
            assertTrue(r.headers().firstValue("request-id").orElseThrow().startsWith("req_"));
            JsonNode msg = RunningProbe.json(r.body());
            assertTrue(msg.path("id").asText().startsWith("msg_"), msg.toString());
            assertEquals("message", msg.path("type").asText());
            assertEquals("assistant", msg.path("role").asText());
            assertEquals("claude-sonnet-4-5", msg.path("model").asText());
            assertEquals(1, msg.path("content").size());
            assertEquals("text", msg.path("content").get(0).path("type").asText());
            assertEquals("Hello from ProbeServer.", msg.path("content").get(0).path("text").asText());
            assertEquals("end_turn", msg.path("stop_reason").asText());
            assertTrue(msg.has("stop_sequence") && msg.path("stop_sequence").isNull());
            assertEquals(BODY.length() / 4, msg.path("usage").path("input_tokens").asInt());
            assertEquals(3, msg.path("usage").path("output_tokens").asInt());
        }
    }

    @Test
    void streamTrueGetsTheFullEventSequence() {
        try (RunningProbe probe = RunningProbe.start()) {
            HttpResponse<String> r = probe.post("/v1/messages", BODY.replace("{\"model\"", "{\"stream\":true,\"model\""));
            assertEquals(200, r.statusCode());
            assertEquals("no-cache", r.headers().firstValue("cache-control").orElseThrow());
            SseFrames sse = SseFrames.parse(r.body());
            assertEquals(List.of("message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta",
                    "content_block_delta", "content_block_stop", "message_delta", "message_stop"), sse.events());

            JsonNode start = sse.named("message_start").getFirst().data().path("message");
            assertTrue(start.path("id").asText().startsWith("msg_"));
            assertEquals("claude-sonnet-4-5", start.path("model").asText());
            assertEquals(0, start.path("content").size());
            assertTrue(start.path("stop_reason").isNull());
            JsonNode block = sse.named("content_block_start").getFirst().data();
            assertEquals(0, block.path("index").asInt());
            assertEquals("text", block.path("content_block").path("type").asText());
            for (SseFrames.Frame d : sse.named("content_block_delta")) {
                assertEquals("text_delta", d.data().path("delta").path("type").asText());
                assertEquals(0, d.data().path("index").asInt());
            }
            assertEquals("Hello from ProbeServer.", sse.text());
            JsonNode end = sse.named("message_delta").getFirst().data();
            assertEquals("end_turn", end.path("delta").path("stop_reason").asText());
            assertEquals(3, end.path("usage").path("output_tokens").asInt());
        }
    }

    @Test
    void replyFlagSetsTheText() {
        try (RunningProbe probe = RunningProbe.start("-reply", "Custom answer here")) {
            JsonNode msg = RunningProbe.json(probe.post("/v1/messages", BODY).body());
            assertEquals("Custom answer here", msg.path("content").get(0).path("text").asText());
            SseFrames sse = SseFrames.parse(probe.post("/v1/messages", "{\"stream\":true}").body());
            assertEquals("Custom answer here", sse.text());
            assertEquals(ProbeRequest.DEFAULT_MODEL,
                    sse.named("message_start").getFirst().data().path("message").path("model").asText());
        }
    }

    @Test
    void countTokensAndModelsAnswerMinimally() {
        try (RunningProbe probe = RunningProbe.start()) {
            HttpResponse<String> count = probe.post("/v1/messages/count_tokens", BODY);
            assertEquals(200, count.statusCode());
            assertEquals(BODY.length() / 4, RunningProbe.json(count.body()).path("input_tokens").asInt());

            JsonNode models = RunningProbe.json(probe.get("/v1/models").body());
            assertEquals("model", models.path("data").get(0).path("type").asText());
            assertEquals(false, models.path("has_more").asBoolean(true));
            JsonNode one = RunningProbe.json(probe.get("/v1/models/claude-x").body());
            assertEquals("claude-x", one.path("id").asText());
        }
    }

    @Test
    void nonJsonBodyIsAnInvalidRequestError() {
        try (RunningProbe probe = RunningProbe.start()) {
            HttpResponse<String> r = probe.post("/v1/messages", "not json");
            assertEquals(400, r.statusCode());
            JsonNode err = RunningProbe.json(r.body());
            assertEquals("error", err.path("type").asText());
            assertEquals("invalid_request_error", err.path("error").path("type").asText());
            assertEquals(404, probe.get("/v1/nothing").statusCode());
        }
    }

    @Test
    void flakyFixtureSucceedsWithTheSameApiShapes() {
        try (RunningProbe probe = RunningProbe.start("-failures", "1")) {
            assertEquals(422, probe.post("/flaky422/v1/messages", BODY).statusCode());
            HttpResponse<String> ok = probe.post("/flaky422/v1/messages", BODY);
            assertEquals("message", RunningProbe.json(ok.body()).path("type").asText());
            assertEquals("model", RunningProbe.json(probe.get("/ok/v1/models").body()).path("data").get(0).path("type").asText());
        }
    }
}
