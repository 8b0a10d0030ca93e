package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.transcode.Mappings.answer;
import static shaper.transcode.Mappings.cli;
import static shaper.transcode.Mappings.request;

import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.Transcoder;

/** Non-streaming chat completions converted back to Anthropic messages. */
class ChatAnswerTest {
    private static final String REQ = request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"stop_sequences\":[\"END\"]");

    private static String completion(String message, String finish, String usage) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"up\",\"choices\":[{\"index\":0,\"message\":" + message
                + ",\"finish_reason\":" + finish + "}]" + (usage == null ? "" : ",\"usage\":" + usage) + "}";
    }

    private static JsonNode convert(TranscodeMapping m, String chat) throws Exception {
        return answer(m, Mappings.prepare(m, REQ), chat);
    }

    private static final TranscodeMapping STOPS = cli(Set.of(ChatCapability.STOP_SEQUENCES), Set.of());

    @Test
    void textAnswerEchoesTheClientModelAndMapsUsageWithoutDoubleCountingCache() throws Exception {
        JsonNode a = convert(STOPS, completion("{\"role\":\"assistant\",\"content\":\"hello\"}", "\"stop\"",
                "{\"prompt_tokens\":100,\"completion_tokens\":7,\"total_tokens\":107,\"prompt_tokens_details\":{\"cached_tokens\":40}}"));
        assertEquals("message", a.get("type").asText());
        assertEquals("claude-x", a.get("model").asText());
        assertEquals("hello", a.get("content").get(0).get("text").asText());
        assertEquals("end_turn", a.get("stop_reason").asText());
        assertEquals(60, a.get("usage").get("input_tokens").asInt());
        assertEquals(40, a.get("usage").get("cache_read_input_tokens").asInt());
        assertEquals(7, a.get("usage").get("output_tokens").asInt());
        assertTrue(a.get("usage").get("cache_creation_input_tokens").isNull(), "unknown stays null, never an invented zero");
    }

    @Test
    void cacheWritesAreTakenOutOfTheInputCountLikeCacheReads() throws Exception {
        JsonNode a = convert(STOPS, completion("{\"role\":\"assistant\",\"content\":\"hello\"}", "\"stop\"",
                "{\"prompt_tokens\":20,\"completion_tokens\":3,\"total_tokens\":23,"
                        + "\"prompt_tokens_details\":{\"cached_tokens\":5,\"created_cache_tokens\":7}}"));
        assertEquals(8, a.get("usage").get("input_tokens").asInt(), "20 prompt tokens = 8 uncached + 5 read + 7 written");
        assertEquals(5, a.get("usage").get("cache_read_input_tokens").asInt());
        assertEquals(7, a.get("usage").get("cache_creation_input_tokens").asInt());
    }

    @Test
    void stopReasonsMap() throws Exception {
        String[][] cases = {{"\"length\"", "max_tokens"}, {"\"content_filter\"", "refusal"}, {"\"stop\"", "end_turn"}, {"null", "end_turn"}};
        for (String[] c : cases) {
            JsonNode a = convert(STOPS, completion("{\"role\":\"assistant\",\"content\":\"x\"}", c[0], null));
            assertEquals(c[1], a.get("stop_reason").asText(), c[0]);
        }
        JsonNode seq = convert(STOPS, "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"x\"},"
                + "\"finish_reason\":\"stop\",\"matched_stop\":\"END\"}]}");
        assertEquals("stop_sequence", seq.get("stop_reason").asText());
        assertEquals("END", seq.get("stop_sequence").asText());
    }

    @Test
    void toolCallsBecomeToolUseBlocksWithTheirIds() throws Exception {
        JsonNode a = convert(STOPS, completion("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_9\",\"type\":\"function\","
                + "\"function\":{\"name\":\"Bash\",\"arguments\":\"{\\\"command\\\":\\\"ls\\\"}\"}}]}", "\"tool_calls\"", null));
        JsonNode block = a.get("content").get(0);
        assertEquals("tool_use", block.get("type").asText());
        assertEquals("call_9", block.get("id").asText());
        assertEquals("ls", block.get("input").get("command").asText());
        assertEquals("tool_use", a.get("stop_reason").asText());
    }

    @Test
    void legacyFunctionCallBecomesOneToolCallWithASynthesizedId() throws Exception {
        Prepared p = Mappings.prepare(STOPS, REQ);
        JsonNode a = answer(STOPS, p, completion("{\"role\":\"assistant\",\"content\":null,\"function_call\":{\"name\":\"f\",\"arguments\":\"{}\"}}",
                "\"function_call\"", null));
        assertEquals("call_chatcmpl-1", a.get("content").get(0).get("id").asText());
        assertTrue(p.report().has(LossKey.LEGACY_FUNCTION_CALL));
    }

    @Test
    void providerReasoningBecomesMarkerSignedThinkingByDefault() throws Exception {
        JsonNode a = convert(STOPS, completion("{\"role\":\"assistant\",\"content\":\"42\",\"reasoning_content\":\"let me think\"}", "\"stop\"", null));
        assertEquals("thinking", a.get("content").get(0).get("type").asText());
        assertEquals("let me think", a.get("content").get(0).get("thinking").asText());
        assertEquals("shaper-synth-thinking-1", a.get("content").get(0).get("signature").asText());
        JsonNode text = convert(textMapping(), completion("{\"role\":\"assistant\",\"content\":\"42\",\"reasoning\":\"hmm\"}", "\"stop\"", null));
        assertEquals("text", text.get("content").get(0).get("type").asText());
        assertEquals("hmm", text.get("content").get(0).get("text").asText());
    }

    private static TranscodeMapping textMapping() {
        TranscodeMapping m = cli();
        return new TranscodeMapping(m.route(), Set.of(ChatCapability.PROVIDER_REASONING_TEXT, ChatCapability.STOP_SEQUENCES), m.policy(), m.allowedQuery(), m.models(), m.limits());
    }

    @Test
    void unknownProviderFieldsAreSkippedAndNeverForwarded() throws Exception {
        JsonNode a = convert(STOPS, "{\"id\":\"c\",\"completion_cost\":0.1,\"prompt_token_ids\":[1,2],\"choices\":[{\"index\":0,"
                + "\"routed_experts\":[3],\"message\":{\"role\":\"assistant\",\"content\":\"ok\",\"provider_specific\":{}},\"finish_reason\":\"stop\"}]}");
        String s = a.toString();
        assertFalse(s.contains("completion_cost") || s.contains("prompt_token_ids") || s.contains("routed_experts") || s.contains("provider_specific"), s);
    }

    @Test
    void wireContractViolationsAreUpstreamFailures() {
        String[] bad = {
            "not json", "[]", "{\"id\":\"c\"}", "{\"id\":\"c\",\"choices\":[]}",
            completion("{\"role\":\"assistant\",\"content\":7}", "\"stop\"", null),
            completion("{\"role\":\"assistant\",\"content\":[{\"type\":\"image_url\"}]}", "\"stop\"", null),
            completion("{\"role\":\"assistant\",\"content\":\"x\"}", "\"stop\"", "{\"prompt_tokens\":\"many\"}"),
            completion("{\"role\":\"assistant\",\"content\":\"x\"}", "\"stop\"", "{\"total_tokens\":5}"),
        };
        for (String b : bad) {
            TranscodeException e = assertThrows(TranscodeException.UpstreamWire.class, () -> convert(STOPS, b), b);
            assertTrue(e.upstreamFailure());
            assertEquals(502, e.status());
        }
    }

    @Test
    void toolArgumentsThatAreNotAnObjectAreLocallyUnrepresentable() {
        TranscodeException e = assertThrows(TranscodeException.Unrepresentable.class, () -> convert(STOPS, completion(
                "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"[1]\"}}]}",
                "\"tool_calls\"", null)));
        assertFalse(e.upstreamFailure());
        assertEquals(Provenance.LOCAL_RESPONSE_CONVERSION_ERROR, Provenance.ofResponseFailure(e));
    }

    @Test
    void usageRepairsAreNotes() throws Exception {
        Prepared p = Mappings.prepare(STOPS, REQ);
        JsonNode a = answer(STOPS, p, completion("{\"role\":\"assistant\",\"content\":\"x\"}", "\"stop\"",
                "{\"prompt_tokens\":10,\"total_tokens\":15,\"cached_tokens\":50}"));
        assertEquals(5, a.get("usage").get("output_tokens").asInt());
        assertEquals(0, a.get("usage").get("input_tokens").asInt());
        assertEquals(10, a.get("usage").get("cache_read_input_tokens").asInt());
        assertTrue(p.report().has(LossKey.USAGE_TOTAL_DERIVED));
        assertTrue(p.report().has(LossKey.USAGE_CACHE_EXCEEDS_INPUT));
        Prepared q = Mappings.prepare(STOPS, REQ);
        answer(STOPS, q, completion("{\"role\":\"assistant\",\"content\":\"x\"}", "\"stop\"", "{\"prompt_tokens\":-3,\"completion_tokens\":2,\"total_tokens\":9}"));
        assertTrue(q.report().has(LossKey.USAGE_NEGATIVE_COUNTS));
        assertTrue(q.report().has(LossKey.USAGE_TOTAL_MISMATCH));
    }

    @Test
    void upstreamErrorsKeepTheirStatusTypeAndNeverForwardHtml() throws Exception {
        Transcoder t = Transcoder.of(cli());
        JsonNode e = Mappings.JSON.readTree(t.error(UpstreamError.parse(429,
                "{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit\",\"code\":\"rl\"}}".getBytes(), "application/json", "req_1", "3")));
        assertEquals("error", e.get("type").asText());
        assertEquals("rate_limit_error", e.get("error").get("type").asText());
        assertEquals("slow down", e.get("error").get("message").asText());
        assertEquals("req_1", e.get("request_id").asText());
        JsonNode html = Mappings.JSON.readTree(t.error(UpstreamError.parse(503, "<html><body>Bad Gateway nginx</body></html>".getBytes(),
                "text/html", null, null)));
        assertEquals("upstream returned HTTP 503", html.get("error").get("message").asText());
        assertEquals("api_error", html.get("error").get("type").asText());
        int[] statuses = {400, 401, 403, 404, 409, 413, 422, 429, 500, 529};
        String[] types = {"invalid_request_error", "authentication_error", "permission_error", "not_found_error", "invalid_request_error",
            "request_too_large", "invalid_request_error", "rate_limit_error", "api_error", "overloaded_error"};
        for (int i = 0; i < statuses.length; i++) {
            assertEquals(types[i], t.errorType(statuses[i]), "status " + statuses[i]);
        }
    }
}
