package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.transcode.Mappings.chatRequest;
import static shaper.transcode.Mappings.cli;
import static shaper.transcode.Mappings.request;

import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.Transcoder;

/** Messages requests rendered as Chat Completions requests, with the CLI defaults unless a test says otherwise. */
class MessagesToChatRequestTest {
    @Test
    void systemTurnsBecomeOneLeadingSystemMessage() throws Exception {
        JsonNode chat = chatRequest(cli(), request("[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"system\",\"content\":\"late\"},"
                + "{\"role\":\"assistant\",\"content\":\"yo\"}]", "\"system\":[{\"type\":\"text\",\"text\":\"one\"},{\"type\":\"text\",\"text\":\"two\"}]"));
        JsonNode messages = chat.get("messages");
        assertEquals("system", messages.get(0).get("role").asText());
        assertEquals("one\ntwo\nlate", messages.get(0).get("content").asText());
        for (int i = 1; i < messages.size(); i++) {
            assertFalse(messages.get(i).get("role").asText().equals("system"), "only index 0 is a system message: " + messages);
        }
        assertEquals("user", messages.get(1).get("role").asText());
        assertEquals("assistant", messages.get(2).get("role").asText());
    }

    @Test
    void systemAnywhereKeepsSystemTurnsInPlace() throws Exception {
        JsonNode chat = chatRequest(cli(Set.of(ChatCapability.SYSTEM_ANYWHERE), Set.of()), request(
                "[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"system\",\"content\":\"late\"}]", "\"system\":\"first\""));
        JsonNode m = chat.get("messages");
        assertEquals(3, m.size());
        assertEquals("first", m.get(0).get("content").asText());
        assertEquals("system", m.get(2).get("role").asText());
        assertEquals("late", m.get(2).get("content").asText());
    }

    @Test
    void toolsToolChoiceAndToolCallsKeepTheirIds() throws Exception {
        JsonNode chat = chatRequest(cli(), request("[{\"role\":\"user\",\"content\":\"run it\"},"
                        + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"},"
                        + "{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]},"
                        + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_01\",\"content\":\"a.txt\"},"
                        + "{\"type\":\"text\",\"text\":\"and now?\"}]}]",
                "\"tools\":[{\"name\":\"Bash\",\"description\":\"shell\",\"input_schema\":{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"}}}}],"
                        + "\"tool_choice\":{\"type\":\"tool\",\"name\":\"Bash\",\"disable_parallel_tool_use\":true}"));
        JsonNode tool = chat.get("tools").get(0);
        assertEquals("function", tool.get("type").asText());
        assertEquals("Bash", tool.get("function").get("name").asText());
        assertEquals("string", tool.get("function").get("parameters").get("properties").get("command").get("type").asText());
        assertEquals("Bash", chat.get("tool_choice").get("function").get("name").asText());
        assertFalse(chat.get("parallel_tool_calls").asBoolean());
        JsonNode m = chat.get("messages");
        assertEquals("ok", m.get(1).get("content").asText());
        JsonNode call = m.get(1).get("tool_calls").get(0);
        assertEquals("toolu_01", call.get("id").asText());
        assertEquals("{\"command\":\"ls\"}", call.get("function").get("arguments").asText());
        assertEquals("tool", m.get(2).get("role").asText());
        assertEquals("toolu_01", m.get(2).get("tool_call_id").asText());
        assertEquals("a.txt", m.get(2).get("content").asText());
        assertEquals("user", m.get(3).get("role").asText());
        assertEquals("and now?", m.get(3).get("content").asText());
    }

    @Test
    void toolChoiceWords() throws Exception {
        for (String[] c : new String[][] {{"auto", "auto"}, {"any", "required"}, {"none", "none"}}) {
            JsonNode chat = chatRequest(cli(), request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"tool_choice\":{\"type\":\"" + c[0] + "\"}"));
            assertEquals(c[1], chat.get("tool_choice").asText());
        }
    }

    @Test
    void failedToolResultGetsTheVisiblePrefixAndMultiPartTextIsJoined() throws Exception {
        Prepared p = Mappings.prepare(cli(), request("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\","
                + "\"is_error\":true,\"content\":[{\"type\":\"text\",\"text\":\"exit 1\"},{\"type\":\"text\",\"text\":\"no such file\"}]}]}]", ""));
        JsonNode chat = Mappings.JSON.readTree(p.body());
        assertEquals("[tool_result_error] exit 1\nno such file", chat.get("messages").get(0).get("content").asText());
        assertTrue(p.report().has(LossKey.TOOL_RESULT_ERROR_STATUS));
        assertTrue(p.report().has(LossKey.TOOL_RESULT_TEXT_JOIN));
    }

    @Test
    void imagesRenderAsImageUrlPartsUnderImageInput() throws Exception {
        JsonNode chat = chatRequest(cli(Set.of(ChatCapability.IMAGE_INPUT), Set.of()), request("[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"text\",\"text\":\"what?\"},{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"iVBO\"}}]}]", ""));
        JsonNode parts = chat.get("messages").get(0).get("content");
        assertEquals("text", parts.get(0).get("type").asText());
        assertEquals("data:image/png;base64,iVBO", parts.get(1).get("image_url").get("url").asText());
    }

    @Test
    void stopSequencesSamplingAndStreamOptions() throws Exception {
        JsonNode chat = chatRequest(cli(Set.of(ChatCapability.STOP_SEQUENCES), Set.of()), request("[{\"role\":\"user\",\"content\":\"x\"}]",
                "\"stop_sequences\":[\"END\"],\"temperature\":0.5,\"top_p\":0.9,\"stream\":true"));
        assertEquals("END", chat.get("stop").get(0).asText());
        assertEquals(0.5, chat.get("temperature").asDouble());
        assertEquals(0.9, chat.get("top_p").asDouble());
        assertEquals(64, chat.get("max_tokens").asInt());
        assertTrue(chat.get("stream").asBoolean());
        assertTrue(chat.get("stream_options").get("include_usage").asBoolean());
        assertEquals("claude-x", chat.get("model").asText());
    }

    @Test
    void thinkingBudgetMapsByTheThresholdTableUnderReasoningEffort() throws Exception {
        TranscodeMapping m = cli(Set.of(ChatCapability.REASONING_EFFORT), Set.of());
        int[] budgets = {0, 1023, 1024, 4095, 4096, 16383, 16384, 100000};
        String[] efforts = {"minimal", "minimal", "low", "low", "medium", "medium", "high", "high"};
        for (int i = 0; i < budgets.length; i++) {
            Prepared p = Mappings.prepare(m, request("[{\"role\":\"user\",\"content\":\"x\"}]",
                    "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":" + budgets[i] + "}"));
            assertEquals(efforts[i], Mappings.JSON.readTree(p.body()).get("reasoning_effort").asText(), "budget " + budgets[i]);
            assertTrue(p.report().has(LossKey.THINKING_BUDGET_MAPPED));
        }
        for (String t : new String[] {"{\"type\":\"adaptive\"}", "{\"type\":\"disabled\"}"}) {
            assertFalse(chatRequest(m, request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"thinking\":" + t)).has("reasoning_effort"), t);
        }
        // without the capability the budget is dropped observably (default request_reasoning approval)
        Prepared p = Mappings.prepare(cli(), request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048}"));
        assertFalse(Mappings.JSON.readTree(p.body()).has("reasoning_effort"));
        assertTrue(p.report().has(LossKey.REQUEST_REASONING));
    }

    @Test
    void crossTypeThinkingMembersAreMalformed() {
        for (String t : new String[] {"{\"type\":\"disabled\",\"budget_tokens\":5}", "{\"type\":\"enabled\"}",
                "{\"type\":\"adaptive\",\"budget_tokens\":5}", "{\"type\":\"sometimes\"}"}) {
            assertThrows(TranscodeException.Invalid.class, () -> Mappings.prepare(cli(),
                    request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"thinking\":" + t)), t);
        }
    }

    @Test
    void markerThinkingIsScrubbedBeforeTheUpstreamSeesIt() throws Exception {
        Prepared p = Mappings.prepare(cli(), request("[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"secret musing\",\"signature\":\"shaper-synth-thinking-1\"},"
                + "{\"type\":\"text\",\"text\":\"answer\"}]},{\"role\":\"user\",\"content\":\"more\"}]", ""));
        String body = new String(p.body(), java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(body.contains("shaper-synth-thinking-1"), body);
        assertFalse(body.contains("secret musing"), body);
        assertTrue(p.report().has(LossKey.SYNTHETIC_THINKING_SCRUBBED));
        assertFalse(p.report().has(LossKey.AUTHENTICATED_THINKING));
    }

    @Test
    void unknownFieldsAndBlockTypesAreClientErrors() {
        String[] bad = {
            request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"frobnicate\":true"),
            request("[{\"role\":\"user\",\"content\":[{\"type\":\"hologram\"}]}]", ""),
            request("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"image_url\":\"u\"}]}]", ""),
            request("[{\"role\":\"user\",\"content\":\"x\",\"name\":\"n\"}]", ""),
            request("[{\"role\":\"robot\",\"content\":\"x\"}]", ""),
            request("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{}}]}]", ""),
            "{\"max_tokens\":1,\"messages\":[]}",
            "not json",
        };
        for (String b : bad) {
            TranscodeException e = assertThrows(TranscodeException.Invalid.class, () -> Mappings.prepare(cli(), b), b);
            assertEquals(400, e.status());
            assertFalse(e.upstreamFailure());
        }
    }

    @Test
    void modelMapAndClientQueryAllowlist() {
        TranscodeMapping base = cli();
        TranscodeMapping mapped = new TranscodeMapping(base.route(), base.capabilities(), base.policy(), base.allowedQuery(),
                java.util.Map.of("claude-x", "qwen3"), base.limits());
        Transcoder t = Transcoder.of(mapped);
        byte[] body = request("[{\"role\":\"user\",\"content\":\"x\"}]", "").getBytes();
        Prepared p = t.prepare(body, "beta=true");
        assertEquals("beta=true", p.query());
        assertTrue(new String(p.body()).contains("\"model\":\"qwen3\""));
        assertEquals("claude-x", p.clientModel());
        TranscodeException e = assertThrows(TranscodeException.Invalid.class, () -> t.prepare(body, "beta=true&debug=1"));
        assertEquals("client query parameter \"debug\" is not allowed on transcoded routes", e.getMessage());
        assertThrows(TranscodeException.Invalid.class, () -> t.prepare(request("[{\"role\":\"user\",\"content\":\"x\"}]", "")
                .replace("claude-x", "other").getBytes(), null));
    }

    @Test
    void anOversizedRequestIs413() {
        TranscodeMapping base = cli();
        TranscodeMapping small = new TranscodeMapping(base.route(), base.capabilities(), base.policy(), base.allowedQuery(), java.util.Map.of(),
                new TranscodeLimits(16, 1 << 20, 1 << 20, 1 << 20, 1 << 20, TranscodeLimits.defaults().generatedFrameBytes()));
        TranscodeException e = assertThrows(TranscodeException.TooLarge.class,
                () -> Transcoder.of(small).prepare(request("[]", "").getBytes(), null));
        assertEquals(413, e.status());
        assertEquals("request_too_large", Transcoder.of(small).errorType(413));
    }
}
