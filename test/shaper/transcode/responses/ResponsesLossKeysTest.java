package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.transcode.responses.ResponsesFixtures.bytes;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import shaper.transcode.ChatCapability;
import shaper.transcode.Direction;
import shaper.transcode.LossKey;
import shaper.transcode.LossPolicy;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.TranscodeRoute;
import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.Transcoder;

/**
 * Every policy loss key of the Responses → Chat and Messages → Responses directions, with an input
 * that reaches it: approved, the exchange succeeds and records the key; rejected, it fails with
 * {@code transcode field <path> uses unsupported feature "<key>"} as a 400.
 */
class ResponsesLossKeysTest {
    /** A request, the upstream answer (null = request side only) and the capabilities it needs. */
    private record Scenario(String request, String answer, Set<ChatCapability> caps) {
    }

    private static final Set<ChatCapability> NONE = Set.of();
    private static final String CHAT_OK = "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"x\"},"
            + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"prompt_tokens_details\":{\"cached_tokens\":0},"
            + "\"completion_tokens_details\":{\"reasoning_tokens\":0}}}";
    private static final String RESP_OK = "{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"role\":\"assistant\","
            + "\"content\":[{\"type\":\"output_text\",\"text\":\"x\",\"annotations\":[]}]}],\"usage\":{\"input_tokens\":3,\"output_tokens\":1,"
            + "\"input_tokens_details\":{\"cached_tokens\":0}}}";

    private static String responses(String extra) {
        return "{\"model\":\"m\"," + extra + "}";
    }

    private static String input(String items) {
        return "\"input\":" + items;
    }

    private static String messages(String messages, String extra) {
        return "{\"model\":\"claude-x\",\"max_tokens\":64," + (extra.isEmpty() ? "" : extra + ",") + "\"messages\":" + messages + "}";
    }

    private static final String USER = "[{\"role\":\"user\",\"content\":\"x\"}]";
    private static final String IMAGE = "{\"type\":\"input_image\",\"image_url\":\"http://i/a.png\"}";

    static Map<LossKey, Scenario> responsesChat() {
        Map<LossKey, Scenario> s = new LinkedHashMap<>();
        String hi = input("\"hi\"");
        s.put(LossKey.PREVIOUS_RESPONSE_ID, new Scenario(responses(hi + ",\"previous_response_id\":\"resp_0\""), null, NONE));
        s.put(LossKey.REQUEST_TOP_LOGPROBS, new Scenario(responses(hi + ",\"top_logprobs\":3"), null, NONE));
        s.put(LossKey.REQUEST_SERVICE_TIER, new Scenario(responses(hi + ",\"service_tier\":\"flex\""), null, NONE));
        s.put(LossKey.REQUEST_TRUNCATION, new Scenario(responses(hi + ",\"truncation\":\"auto\""), null, NONE));
        s.put(LossKey.SYSTEM_NON_TEXT_CONTENT, new Scenario(responses(input("[{\"role\":\"developer\",\"content\":[{\"type\":\"input_text\",\"text\":\"a\"},"
                + IMAGE + "]},{\"role\":\"user\",\"content\":\"x\"}]")), null, NONE));
        s.put(LossKey.MID_CONVERSATION_SYSTEM, new Scenario(responses(input("[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"system\",\"content\":\"s\"}]")),
                null, NONE));
        s.put(LossKey.TOOL_RESULT_MULTIMODAL_CONTENT, new Scenario(responses(input("[{\"type\":\"function_call\",\"call_id\":\"c1\",\"name\":\"f\","
                + "\"arguments\":\"{}\"},{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":[" + IMAGE + "]}]")), null,
                EnumSet.of(ChatCapability.IMAGE_INPUT)));
        s.put(LossKey.USAGE_UNKNOWN, new Scenario(responses(hi), CHAT_OK.substring(0, CHAT_OK.indexOf(",\"usage\"")) + "}", NONE));
        s.put(LossKey.IMAGE_DETAIL_ORIGINAL, new Scenario(responses(input("[{\"role\":\"user\",\"content\":[{\"type\":\"input_image\","
                + "\"image_url\":\"http://i/a.png\",\"detail\":\"original\"}]}]")), null, EnumSet.of(ChatCapability.IMAGE_INPUT)));
        s.put(LossKey.USAGE_CACHE_READ_UNKNOWN, new Scenario(responses(hi), CHAT_OK.replace("\"prompt_tokens_details\":{\"cached_tokens\":0},", ""), NONE));
        s.put(LossKey.USAGE_REASONING_UNKNOWN, new Scenario(responses(hi), CHAT_OK.replace(",\"completion_tokens_details\":{\"reasoning_tokens\":0}", ""), NONE));
        s.put(LossKey.PROVIDER_REASONING_TEXT, new Scenario(responses(hi), CHAT_OK.replace("\"content\":\"x\"", "\"content\":\"x\",\"reasoning_content\":\"r\""),
                NONE));
        s.put(LossKey.REQUEST_REASONING, new Scenario(responses(hi + ",\"reasoning\":{\"effort\":\"low\"}"), null, NONE));
        s.put(LossKey.REASONING_SUMMARY, new Scenario(responses(hi + ",\"reasoning\":{\"summary\":\"auto\"}"), null, NONE));
        s.put(LossKey.DEVELOPER_ROLE, new Scenario(responses(input("[{\"role\":\"developer\",\"content\":\"d\"},{\"role\":\"user\",\"content\":\"x\"}]")),
                null, NONE));
        s.put(LossKey.STRUCTURED_OUTPUT, new Scenario(responses(hi + ",\"text\":{\"format\":{\"type\":\"json_object\"}}"), null, NONE));
        s.put(LossKey.PARALLEL_TOOL_CALLS, new Scenario(responses(hi + ",\"parallel_tool_calls\":true,\"tools\":[{\"type\":\"function\",\"name\":\"f\"}]"),
                null, NONE));
        s.put(LossKey.IMAGE_INPUT, new Scenario(responses(input("[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"a\"}," + IMAGE + "]}]")),
                null, NONE));
        s.put(LossKey.DOCUMENT_INPUT, new Scenario(responses(input("[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"a\"},"
                + "{\"type\":\"input_file\",\"file_id\":\"file_1\"}]}]")), null, NONE));
        s.put(LossKey.RESPONSES_CONTROLS, new Scenario(responses(hi + ",\"metadata\":{\"k\":\"v\"}"), null, NONE));
        s.put(LossKey.BUILTIN_TOOLS, new Scenario(responses(hi + ",\"tools\":[{\"type\":\"web_search\"}]"), null, NONE));
        s.put(LossKey.OUTPUT_PHASE, new Scenario(responses(input("[{\"role\":\"user\",\"content\":\"x\"},{\"type\":\"message\",\"role\":\"assistant\","
                + "\"phase\":\"commentary\",\"content\":[{\"type\":\"output_text\",\"text\":\"a\"}]},{\"role\":\"user\",\"content\":\"y\"}]")), null, NONE));
        return s;
    }

    static Map<LossKey, Scenario> messagesResponses() {
        Map<LossKey, Scenario> s = new LinkedHashMap<>();
        String tool = "\"tools\":[{\"name\":\"Bash\",\"input_schema\":{\"type\":\"object\"}}]";
        s.put(LossKey.SYSTEM_NON_TEXT_CONTENT, new Scenario(messages(USER, "\"system\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\","
                + "\"source\":{\"type\":\"url\",\"url\":\"http://i\"}}]"), null, NONE));
        s.put(LossKey.TOOL_SCHEMA_STRICTNESS, new Scenario(messages(USER, tool), null, NONE));
        s.put(LossKey.TOOL_RESULT_ERROR_STATUS, new Scenario(messages("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\","
                + "\"is_error\":true,\"content\":\"boom\"}]}]", ""), null, NONE));
        s.put(LossKey.OUTPUT_ITEM_BOUNDARIES, new Scenario(messages(USER, ""), RESP_OK.replace("\"output\":[", "\"output\":[{\"type\":\"web_search_call\","
                + "\"id\":\"ws_1\",\"status\":\"completed\"},"), NONE));
        s.put(LossKey.USAGE_UNKNOWN, new Scenario(messages(USER, ""), RESP_OK.substring(0, RESP_OK.indexOf(",\"usage\"")) + "}", NONE));
        s.put(LossKey.USAGE_CACHE_READ_UNKNOWN, new Scenario(messages(USER, ""), RESP_OK.replace(",\"input_tokens_details\":{\"cached_tokens\":0}", ""), NONE));
        s.put(LossKey.USAGE_CACHE_WRITE_UNKNOWN, new Scenario(messages(USER, ""), RESP_OK, NONE));
        s.put(LossKey.REQUEST_REASONING, new Scenario(messages(USER, "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2000}"), null, NONE));
        s.put(LossKey.TOOL_RESULT_JSON_ENVELOPE, new Scenario(messages("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"see\"},{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"http://i\"}}]}]}]", ""), null, NONE));
        s.put(LossKey.STOP_SEQUENCES, new Scenario(messages(USER, "\"stop_sequences\":[\"X\"]"), null, NONE));
        s.put(LossKey.DOCUMENT_INPUT, new Scenario(messages("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"document\","
                + "\"source\":{\"type\":\"text\",\"data\":\"d\"}}]}]", ""), null, NONE));
        s.put(LossKey.AUTHENTICATED_THINKING, new Scenario(messages("[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"EqQBCgIYAh\"},{\"type\":\"text\",\"text\":\"a\"}]},"
                + "{\"role\":\"user\",\"content\":\"y\"}]", ""), null, NONE));
        s.put(LossKey.TOP_K, new Scenario(messages(USER, "\"top_k\":5"), null, NONE));
        s.put(LossKey.LOGPROBS, new Scenario(messages(USER, ""), RESP_OK.replace("\"annotations\":[]", "\"annotations\":[],\"logprobs\":[{\"token\":\"x\","
                + "\"logprob\":-0.1}]"), NONE));
        s.put(LossKey.ANTHROPIC_SAFEGUARDS, new Scenario(messages(USER, "\"safeguards\":[{\"type\":\"dangerous_tool_use\",\"classifier_context\":{\"v\":1}}]"), null, NONE));
        s.put(LossKey.ANTHROPIC_CONTROLS, new Scenario(messages(USER, "\"metadata\":{\"user_id\":\"u\"}"), null, NONE));
        s.put(LossKey.REQUEST_CITATIONS, new Scenario(messages("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\",\"citations\":"
                + "[{\"type\":\"char_location\"}]}]}]", ""), null, NONE));
        s.put(LossKey.ANTHROPIC_SERVER_TOOLS, new Scenario(messages(USER, "\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\","
                + "\"max_uses\":8}]"), null, NONE));
        s.put(LossKey.RESPONSE_SERVICE_TIER, new Scenario(messages(USER, ""), RESP_OK.replace("\"status\"", "\"service_tier\":\"flex\",\"status\""), NONE));
        return s;
    }

    private static Set<LossKey> everyPolicyKey() {
        return ResponsesFixtures.everything();
    }

    private static Prepared run(Direction d, Set<ChatCapability> caps, Set<LossKey> approved, Scenario s) {
        TranscodeRoute route = d == Direction.RESPONSES_CHAT ? TranscodeRoute.RESPONSES_CHAT : TranscodeRoute.MESSAGES_RESPONSES;
        Transcoder t = Transcoder.of(new TranscodeMapping(route, caps, new LossPolicy(approved), Set.of(), Map.of(), TranscodeLimits.defaults()));
        Prepared p = t.prepare(bytes(s.request()), null);
        if (s.answer() != null) {
            t.answer(bytes(s.answer()), p);
        }
        return p;
    }

    private static void approvedAndRejected(Direction d, Map<LossKey, Scenario> scenarios) {
        for (Map.Entry<LossKey, Scenario> e : scenarios.entrySet()) {
            LossKey key = e.getKey();
            Prepared ok = run(d, e.getValue().caps(), everyPolicyKey(), e.getValue());
            assertTrue(ok.report().has(key), key + " recorded when approved: " + ok.report().summary());
            Set<LossKey> allButKey = everyPolicyKey();
            allButKey.remove(key);
            TranscodeException.Unsupported rejected = assertThrows(TranscodeException.Unsupported.class,
                    () -> run(d, e.getValue().caps(), allButKey, e.getValue()), d + " " + key.wireName());
            assertEquals(key, rejected.key());
            assertEquals(400, rejected.status());
            assertTrue(rejected.getMessage().matches("transcode field \\S+ uses unsupported feature \"" + key.wireName() + "\""),
                    rejected.getMessage());
        }
    }

    private static Set<LossKey> policyKeysOf(Direction d) {
        Set<LossKey> out = EnumSet.noneOf(LossKey.class);
        for (LossKey k : LossKey.values()) {
            if (k.kind() == LossKey.Kind.POLICY && k.directions().contains(d)) {
                out.add(k);
            }
        }
        return out;
    }

    @Test
    void responsesChatKeysApprovedAreRecordedAndRejectedAreClientErrors() {
        approvedAndRejected(Direction.RESPONSES_CHAT, responsesChat());
    }

    @Test
    void messagesResponsesKeysApprovedAreRecordedAndRejectedAreClientErrors() {
        approvedAndRejected(Direction.MESSAGES_RESPONSES, messagesResponses());
    }

    @Test
    void everyPolicyKeyOfBothDirectionsHasAScenario() {
        assertEquals(policyKeysOf(Direction.RESPONSES_CHAT), responsesChat().keySet());
        assertEquals(policyKeysOf(Direction.MESSAGES_RESPONSES), messagesResponses().keySet());
    }

    @Test
    void aLateSystemTurnKeepsItsPlaceOnAResponsesUpstream() {
        Prepared p = run(Direction.MESSAGES_RESPONSES, NONE, Set.of(), new Scenario(messages("[{\"role\":\"user\",\"content\":\"x\"},"
                + "{\"role\":\"system\",\"content\":\"s\"}]", "\"system\":\"first\""), null, NONE));
        com.fasterxml.jackson.databind.JsonNode body = ResponsesFixtures.json(p.body());
        assertEquals("first", body.path("instructions").asText());
        assertEquals("system", body.path("input").get(1).path("role").asText());
        assertEquals("s", body.path("input").get(1).path("content").get(0).path("text").asText());
        assertTrue(p.report().entries().isEmpty(), p.report().summary());
    }

    @Test
    void notesOfTheseDirections() {
        Prepared p = run(Direction.MESSAGES_RESPONSES, NONE, Set.of(LossKey.TOOL_RESULT_JSON_ENVELOPE),
                new Scenario(messages("[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"http://i\"}},"
                        + "{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]}]}]",
                        ""), null, NONE));
        assertTrue(p.report().has(LossKey.IMAGE_DETAIL_INVENTED));
        assertTrue(p.report().has(LossKey.TOOL_RESULT_TEXT_JOIN));
        assertEquals("a\nb", ResponsesFixtures.json(p.body()).path("input").get(1).path("output").asText());
        Prepared derived = run(Direction.MESSAGES_RESPONSES, NONE, everyPolicyKey(), new Scenario(messages(USER, ""),
                RESP_OK.replace("\"output_tokens\":1,", "\"total_tokens\":9,"), NONE));
        assertTrue(derived.report().has(LossKey.USAGE_TOTAL_DERIVED));
    }
}
