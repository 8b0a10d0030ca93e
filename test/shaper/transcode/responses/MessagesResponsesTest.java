package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.transcode.responses.ResponsesFixtures.bytes;
import static shaper.transcode.responses.ResponsesFixtures.json;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.cli.CommandLineParser;
import shaper.config.ConfigException;
import shaper.transcode.ChatCapability;
import shaper.transcode.LossKey;
import shaper.transcode.LossPolicy;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.TranscodeRoute;
import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.StreamConversion;
import shaper.transcode.pipeline.Transcoder;

/** Messages clients on a Responses upstream: the request rendered, Responses JSON and streams converted back. */
class MessagesResponsesTest {
    private static final Transcoder T = Transcoder.of(mapping(ResponsesFixtures.defaultsPlus(LossKey.TOOL_SCHEMA_STRICTNESS)));
    private static final String CLAUDE_LIKE = "{\"model\":\"claude-sonnet\",\"max_tokens\":1024,\"stream\":true,"
            + "\"system\":[{\"type\":\"text\",\"text\":\"You are Claude Code.\"}],"
            + "\"tools\":[{\"name\":\"Bash\",\"description\":\"Runs a command\",\"input_schema\":{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"}}}}],"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"list files\"},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Listing.\"},{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]},"
            + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"is_error\":true,\"content\":\"permission denied\"}]}]}";

    private static TranscodeMapping mapping(Set<LossKey> approved) {
        return new TranscodeMapping(TranscodeRoute.MESSAGES_RESPONSES, ChatCapability.cliDefaults(), new LossPolicy(approved), Set.of("beta"),
                Map.of(), TranscodeLimits.defaults());
    }

    @Test
    void claudeCodeRequestBecomesAResponsesRequest() {
        Prepared p = T.prepare(bytes(CLAUDE_LIKE), "beta=true");
        JsonNode r = json(p.body());
        assertEquals("/v1/responses", p.upstreamPath());
        assertEquals("beta=true", p.query());
        assertEquals("You are Claude Code.", r.path("instructions").asText());
        assertEquals(1024, r.path("max_output_tokens").asInt());
        assertFalse(r.path("store").asBoolean(true));
        assertTrue(r.path("stream").asBoolean());
        JsonNode tool = r.path("tools").get(0);
        assertEquals("function", tool.path("type").asText());
        assertEquals("Bash", tool.path("name").asText());
        assertFalse(tool.path("strict").asBoolean(true), "strict:false under tool_schema_strictness");
        assertTrue(p.report().has(LossKey.TOOL_SCHEMA_STRICTNESS));
        JsonNode input = r.path("input");
        assertEquals("list files", input.get(0).path("content").get(0).path("text").asText());
        assertEquals("output_text", input.get(1).path("content").get(0).path("type").asText());
        assertEquals("function_call", input.get(2).path("type").asText());
        assertEquals("toolu_1", input.get(2).path("call_id").asText());
        assertEquals("{\"command\":\"ls\"}", input.get(2).path("arguments").asText());
        assertEquals("function_call_output", input.get(3).path("type").asText());
        assertEquals("[tool_result_error] permission denied", input.get(3).path("output").asText());
    }

    @Test
    void thinkingBudgetAndStopSequencesAreLossDecisions() {
        byte[] thinking = bytes("{\"model\":\"m\",\"max_tokens\":10,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        Prepared p = T.prepare(thinking, null);
        assertTrue(p.report().has(LossKey.REQUEST_REASONING), "dropped observably under the default approval");
        assertFalse(json(p.body()).has("reasoning"));
        Transcoder strict = Transcoder.of(mapping(EnumSet.of(LossKey.TOOL_SCHEMA_STRICTNESS)));
        assertEquals(LossKey.REQUEST_REASONING, assertThrows(TranscodeException.Unsupported.class, () -> strict.prepare(thinking, null)).key());
        byte[] stops = bytes("{\"model\":\"m\",\"max_tokens\":10,\"stop_sequences\":[\"END\"],\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertEquals(LossKey.STOP_SEQUENCES, assertThrows(TranscodeException.Unsupported.class, () -> T.prepare(stops, null)).key());
    }

    @Test
    void dataOnlyResponsesStreamWithARepeatedTerminalBecomesTheAnthropicLifecycle() {
        Prepared p = T.prepare(bytes(CLAUDE_LIKE), null);
        RecordingSink sink = new RecordingSink();
        StreamConversion c = T.stream(sink, p);
        byte[] sse = ResponsesFixtures.field("data_only_responses_stream_field.sse");
        for (int i = 0; i < sse.length; i += 37) { // re-chunked at an odd size
            c.feed(sse, i, Math.min(37, sse.length - i));
        }
        c.end();
        List<String> names = sink.names();
        assertEquals("message_start", names.get(0));
        assertEquals(1, names.stream().filter("message_stop"::equals).count());
        assertEquals("message_stop", names.get(names.size() - 1));
        for (RecordingSink.Event e : sink.events) {
            assertEquals(e.name(), e.json().path("type").asText());
        }
        List<String> blocks = sink.named("content_block_start").stream()
                .map(e -> e.json().path("content_block").path("type").asText()).toList();
        assertEquals(List.of("thinking", "text", "tool_use"), blocks);
        JsonNode tool = sink.named("content_block_start").get(2).json().path("content_block");
        assertEquals("call_camel_1", tool.path("id").asText());
        assertEquals("Bash", tool.path("name").asText());
        String args = sink.named("content_block_delta").stream().filter(e -> e.json().path("delta").path("type").asText().equals("input_json_delta"))
                .map(e -> e.json().path("delta").path("partial_json").asText()).reduce("", String::concat);
        assertEquals("{\"command\":\"ls -1\"}", args);
        String text = sink.named("content_block_delta").stream().filter(e -> e.json().path("delta").path("type").asText().equals("text_delta"))
                .map(e -> e.json().path("delta").path("text").asText()).reduce("", String::concat);
        assertEquals("Two files found.", text);
        JsonNode delta = sink.named("message_delta").get(0).json();
        assertEquals("tool_use", delta.path("delta").path("stop_reason").asText());
        assertEquals(20, delta.path("usage").path("input_tokens").asInt(), "cached tokens are not counted twice");
        assertEquals(100, delta.path("usage").path("cache_read_input_tokens").asInt());
        assertEquals(18, delta.path("usage").path("output_tokens").asInt());
        assertTrue(p.report().has(LossKey.MISSING_EVENT_NAME));
        assertFalse(sink.events.toString().contains("aGVsbG8"), "the opaque p field is never forwarded");
    }

    @Test
    void mismatchedEventNameIsCorruptWire() {
        StreamConversion c = T.stream(new RecordingSink(), T.prepare(bytes(CLAUDE_LIKE), null));
        byte[] sse = bytes("event: response.completed\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"x\"}\n\n");
        TranscodeException e = assertThrows(TranscodeException.UpstreamWire.class, () -> c.feed(sse, 0, sse.length));
        assertTrue(e.upstreamFailure());
    }

    @Test
    void failedResponseMidStreamEndsInOneErrorEvent() {
        RecordingSink sink = new RecordingSink();
        StreamConversion c = T.stream(sink, T.prepare(bytes(CLAUDE_LIKE), null));
        byte[] sse = bytes("event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\"}}\n\n"
                + "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"Hi\"}\n\n"
                + "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{\"id\":\"resp_1\",\"status\":\"failed\","
                + "\"error\":{\"code\":\"server_error\",\"message\":\"model crashed\"}}}\n\n");
        TranscodeException e = assertThrows(TranscodeException.UpstreamWire.class, () -> c.feed(sse, 0, sse.length));
        assertTrue(e.getMessage().contains("model crashed"));
        c.fail("api_error", e.getMessage());
        assertEquals("error", sink.last().name());
        assertFalse(sink.names().contains("message_stop"));
        assertEquals(1, sink.named("error").size());
    }

    @Test
    void nonStreamingResponsesBodyBecomesAMessage() {
        Prepared p = T.prepare(bytes(CLAUDE_LIKE.replace("\"stream\":true", "\"stream\":false")), null);
        byte[] out = T.answer(ResponsesFixtures.field("camel_reasoning_format_field.json"), p);
        JsonNode m = json(out);
        assertEquals("message", m.path("type").asText());
        assertEquals("claude-sonnet", m.path("model").asText());
        assertEquals("thinking", m.path("content").get(0).path("type").asText());
        assertEquals("shaper-synth-thinking-1", m.path("content").get(0).path("signature").asText());
        assertEquals("Done.", m.path("content").get(1).path("text").asText());
        assertEquals("end_turn", m.path("stop_reason").asText());
        assertEquals(9, m.path("usage").path("input_tokens").asInt());
        byte[] failed = bytes("{\"id\":\"resp_f\",\"status\":\"failed\",\"output\":[],\"error\":{\"code\":\"server_error\",\"message\":\"boom\"}}");
        assertTrue(assertThrows(TranscodeException.UpstreamWire.class, () -> T.answer(failed, p)).upstreamFailure(),
                "status:failed is an upstream failure");
    }

    @Test
    void startupRulesForTheMessagesPresets() {
        ConfigException both = assertThrows(ConfigException.class, () -> CommandLineParser.parse(List.of("-upstream", "http://127.0.0.1:9",
                "-transcode-messages-chat", "-transcode-messages-responses", "-transcode-allow-loss", "tool_schema_strictness")));
        assertEquals("-transcode-messages-chat and -transcode-messages-responses both map /v1/messages; enable only one", both.getMessage());
        ConfigException strictness = assertThrows(ConfigException.class, () -> CommandLineParser.parse(List.of("-upstream", "http://127.0.0.1:9",
                "-transcode-messages-responses")));
        assertTrue(strictness.getMessage().contains("tool_schema_strictness"), strictness.getMessage());
        assertThrows(ConfigException.class, () -> CommandLineParser.parse(List.of("-upstream", "http://127.0.0.1:9",
                "-transcode-route", "messages@/v1/messages=responses@/v1/responses")));
        CommandLineParser.parse(List.of("-upstream", "http://127.0.0.1:9", "-transcode-messages-responses",
                "-transcode-allow-loss", "tool_schema_strictness"));
    }
}
