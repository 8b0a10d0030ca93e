package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.ProjectRoot;
import shaper.transcode.pipeline.Prepared;

/**
 * The field corpus ({@code test/shaper/transcode/field/}): sanitized bytes with the spellings real
 * providers and Claude Code send, replayed through the production decoders. A modeled extension
 * decodes and never reaches the client's output.
 */
class FieldCorpusTest {
    /** Provider extension names that must never reach a client. */
    private static final List<String> EXTENSIONS = List.of("prompt_token_ids", "prompt_text", "matched_stop",
            "routed_experts", "token_ids", "cache_cost", "completion_cost", "prompt_cache_hit_tokens", "prompt_cache_miss_tokens",
            "created_cache_tokens", "reasoning_tokens", "native_finish_reason", "kv_transfer_params", "Verboo", "system_fingerprint");

    private static String field(String name) throws Exception {
        return Files.readString(ProjectRoot.find().resolve("test/shaper/transcode/field").resolve(name), StandardCharsets.UTF_8);
    }

    private static void noExtensionLeaks(String output) {
        for (String e : EXTENSIONS) {
            assertFalse(output.contains(e), e + " leaked into: " + output);
        }
    }

    private static String all(Lifecycle.Run run) {
        StringBuilder sb = new StringBuilder();
        run.events().events.forEach(e -> sb.append(e[1]).append('\n'));
        return sb.toString();
    }

    @Test
    void qwenStreamWithNullMatchedStopAndUsageExtensions() throws Exception {
        for (int chunking : new int[] {0, 3, -9}) {
            Lifecycle.Run run = Lifecycle.convert(Mappings.cli(), ChatStreamTest.REQ, field("qwen_stream_field.sse"), chunking);
            Lifecycle.assertValid(run);
            noExtensionLeaks(all(run));
            JsonNode delta = run.events().json(run.events().events.size() - 2);
            assertEquals("end_turn", delta.get("delta").get("stop_reason").asText());
            assertEquals(300, delta.get("usage").get("input_tokens").asInt());
            assertEquals(512, delta.get("usage").get("cache_read_input_tokens").asInt());
        }
    }

    @Test
    void qwenNonStreamWithEnvelopeAndChoiceExtensions() throws Exception {
        Prepared p = Mappings.prepare(Mappings.cli(), Mappings.request("[{\"role\":\"user\",\"content\":\"2+2?\"}]", ""));
        JsonNode a = Mappings.answer(Mappings.cli(), p, field("qwen_nonstream_field.json"));
        noExtensionLeaks(a.toString());
        assertEquals("thinking", a.get("content").get(0).get("type").asText());
        assertEquals("2+2 is 4.", a.get("content").get(0).get("thinking").asText());
        assertEquals("Four.", a.get("content").get(1).get("text").asText());
        // prompt 40 = 0 uncached + 16 read + 24 written: Anthropic's input_tokens excludes both
        assertEquals(0, a.get("usage").get("input_tokens").asInt());
        assertEquals(16, a.get("usage").get("cache_read_input_tokens").asInt());
        assertEquals(24, a.get("usage").get("cache_creation_input_tokens").asInt());
    }

    @Test
    void deepseekReasoningContentStreamsAsNativeThinking() throws Exception {
        Lifecycle.Run run = Lifecycle.convert(Mappings.cli(), ChatStreamTest.REQ, field("qwen_reasoning_stream_field.sse"), -5);
        Lifecycle.assertValid(run);
        noExtensionLeaks(all(run));
        assertEquals("thinking", run.events().json(1).get("content_block").get("type").asText());
        assertTrue(all(run).contains("\"thinking\":\"The user greets;\""));
        assertTrue(all(run).contains("\"signature\":\"shaper-synth-thinking-1\""));
        assertTrue(all(run).contains("\"text\":\"Hi!\""));
    }

    @Test
    void gatewayBillingFieldsAndARepeatedToolCallsTerminal() throws Exception {
        Lifecycle.Run run = Lifecycle.convert(Mappings.cli(), ChatStreamTest.REQ, field("litellm_billing_tools_stream_field.sse"), 11);
        Lifecycle.assertValid(run);
        noExtensionLeaks(all(run));
        assertEquals("{\"command\": \"git status\"}", run.toolArguments(0));
        JsonNode delta = run.events().json(run.events().events.size() - 2);
        assertEquals("tool_use", delta.get("delta").get("stop_reason").asText());
        assertEquals(1200, delta.get("usage").get("input_tokens").asInt());
    }

    @Test
    void legacyFunctionCall() throws Exception {
        Prepared p = Mappings.prepare(Mappings.cli(), Mappings.request("[{\"role\":\"user\",\"content\":\"weather?\"}]", ""));
        JsonNode a = Mappings.answer(Mappings.cli(), p, field("legacy_function_call_field.json"));
        assertEquals("tool_use", a.get("content").get(0).get("type").asText());
        assertEquals("Oslo", a.get("content").get(0).get("input").get("city").asText());
        assertTrue(p.report().has(LossKey.LEGACY_FUNCTION_CALL));
    }

    @Test
    void claudeCodeRequestConvertsUnderTheDefaults() throws Exception {
        Prepared p = Mappings.prepare(Mappings.cli(), field("claude_code_request_field.json"));
        JsonNode chat = Mappings.JSON.readTree(p.body());
        String body = chat.toString();
        JsonNode m = chat.get("messages");
        assertEquals("system", m.get(0).get("role").asText());
        assertTrue(m.get(0).get("content").asText().startsWith("You are Claude Code"));
        assertTrue(m.get(0).get("content").asText().endsWith("Plan mode is not active."));
        for (int i = 1; i < m.size(); i++) {
            assertFalse(m.get(i).get("role").asText().equals("system"));
        }
        JsonNode tool = m.get(m.size() - 1);
        assertEquals("tool", tool.get("role").asText());
        assertEquals("toolu_01A", tool.get("tool_call_id").asText());
        assertEquals("[tool_result_error] Exit code 1\n3 passed, 1 failed", tool.get("content").asText());
        assertEquals("toolu_01A", m.get(m.size() - 2).get("tool_calls").get(0).get("id").asText());
        for (String gone : List.of("cache_control", "shaper-synth-thinking-1", "context_management", "output_config", "metadata",
                "user_sanitized", "budget_tokens")) {
            assertFalse(body.contains(gone), gone + " crossed: " + body);
        }
        assertTrue(p.report().has(LossKey.MID_CONVERSATION_SYSTEM));
        assertTrue(p.report().has(LossKey.REQUEST_REASONING));
    }
}
