package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.Transcoder;

/**
 * Every loss key reachable from a Messages client on a Chat upstream, with an input that triggers
 * it: approved, the exchange succeeds and records the key; rejected, it fails with the documented
 * client-dialect error naming the key. Notes are recorded without a decision.
 */
class LossKeysTest {
    /** A request, the chat answer (null = request side only) and the capabilities it needs to reach the key. */
    private record Scenario(String request, String answer, Set<ChatCapability> caps) {
    }

    private static final String OK = "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"x\"},"
            + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"prompt_tokens_details\":{\"cached_tokens\":0,"
            + "\"created_cache_tokens\":0}}}";

    private static String req(String messages, String extra) {
        return Mappings.request(messages, extra);
    }

    private static final String USER = "[{\"role\":\"user\",\"content\":\"x\"}]";

    private static Map<LossKey, Scenario> scenarios() {
        Map<LossKey, Scenario> s = new LinkedHashMap<>();
        Set<ChatCapability> none = Set.of();
        s.put(LossKey.SYSTEM_NON_TEXT_CONTENT, new Scenario(req(USER, "\"system\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\","
                + "\"source\":{\"type\":\"url\",\"url\":\"http://i\"}}]"), null, none));
        s.put(LossKey.MID_CONVERSATION_SYSTEM, new Scenario(req("[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"system\",\"content\":\"s\"}]", ""),
                null, none));
        s.put(LossKey.TOOL_RESULT_ERROR_STATUS, new Scenario(req("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\","
                + "\"is_error\":true,\"content\":\"boom\"}]}]", ""), null, none));
        s.put(LossKey.TOOL_RESULT_MULTIMODAL_CONTENT, new Scenario(req("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\","
                + "\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"http://i\"}}]}]}]", ""), null, none));
        s.put(LossKey.USAGE_UNKNOWN, new Scenario(req(USER, ""), "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"x\"},\"finish_reason\":\"stop\"}]}", none));
        s.put(LossKey.USAGE_CACHE_READ_UNKNOWN, new Scenario(req(USER, ""), OK.replace("\"cached_tokens\":0,", ""), none));
        s.put(LossKey.USAGE_CACHE_WRITE_UNKNOWN, new Scenario(req(USER, ""), OK.replace(",\"created_cache_tokens\":0", ""), none));
        s.put(LossKey.PROVIDER_REASONING_TEXT, new Scenario(req(USER, ""), OK.replace("\"content\":\"x\"", "\"content\":\"x\",\"reasoning_content\":\"r\""),
                none));
        s.put(LossKey.REQUEST_REASONING, new Scenario(req(USER, "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2000}"), null, none));
        s.put(LossKey.PARALLEL_TOOL_CALLS, new Scenario(req(USER, "\"tool_choice\":{\"type\":\"auto\",\"disable_parallel_tool_use\":true}"), null, none));
        s.put(LossKey.STOP_SEQUENCES, new Scenario(req(USER, "\"stop_sequences\":[\"X\"]"), null, none));
        s.put(LossKey.IMAGE_INPUT, new Scenario(req("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\","
                + "\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"AA\"}}]}]", ""), null, none));
        s.put(LossKey.DOCUMENT_INPUT, new Scenario(req("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"document\","
                + "\"source\":{\"type\":\"text\",\"data\":\"d\"}}]}]", ""), null, none));
        s.put(LossKey.AUTHENTICATED_THINKING, new Scenario(req("[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"EqQBCgIYAh\"},{\"type\":\"text\",\"text\":\"a\"}]},"
                + "{\"role\":\"user\",\"content\":\"y\"}]", ""), null, none));
        s.put(LossKey.TOP_K, new Scenario(req(USER, "\"top_k\":5"), null, none));
        s.put(LossKey.ANTHROPIC_SAFEGUARDS, new Scenario(req(USER, "\"safeguards\":[{\"type\":\"dangerous_tool_use\",\"classifier_context\":{\"v\":1}}]"), null, none));
        s.put(LossKey.ANTHROPIC_CONTROLS, new Scenario(req(USER, "\"metadata\":{\"user_id\":\"u\"}"), null, none));
        s.put(LossKey.REQUEST_CITATIONS, new Scenario(req("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\",\"citations\":"
                + "[{\"type\":\"char_location\"}]}]}]", ""), null, none));
        s.put(LossKey.ANTHROPIC_SERVER_TOOLS, new Scenario(req(USER, "\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\",\"max_uses\":8}]"),
                null, none));
        return s;
    }

    private static Set<LossKey> everyPolicyKey() {
        Set<LossKey> all = EnumSet.noneOf(LossKey.class);
        for (LossKey k : LossKey.values()) {
            if (k.kind() == LossKey.Kind.POLICY) {
                all.add(k);
            }
        }
        return all;
    }

    private static Prepared run(TranscodeMapping m, Scenario s) {
        Transcoder t = Transcoder.of(m);
        Prepared p = t.prepare(s.request().getBytes(StandardCharsets.UTF_8), null);
        if (s.answer() != null) {
            t.answer(s.answer().getBytes(StandardCharsets.UTF_8), p);
        }
        return p;
    }

    private static TranscodeMapping mapping(Set<ChatCapability> caps, Set<LossKey> approved) {
        return new TranscodeMapping(TranscodeRoute.MESSAGES_CHAT, caps, new LossPolicy(approved), Set.of(), Map.of(), TranscodeLimits.defaults());
    }

    @Test
    void eachPolicyKeyApprovedIsRecordedAndRejectedIsAClientError() {
        for (Map.Entry<LossKey, Scenario> e : scenarios().entrySet()) {
            LossKey key = e.getKey();
            Prepared ok = run(mapping(e.getValue().caps(), everyPolicyKey()), e.getValue());
            assertTrue(ok.report().has(key), key + " recorded when approved: " + ok.report().summary());
            Set<LossKey> allButKey = everyPolicyKey();
            allButKey.remove(key);
            TranscodeException.Unsupported rejected = assertThrows(TranscodeException.Unsupported.class,
                    () -> run(mapping(e.getValue().caps(), allButKey), e.getValue()), key.wireName());
            assertEquals(key, rejected.key());
            assertEquals(400, rejected.status());
            assertTrue(rejected.getMessage().matches("transcode field \\S+ uses unsupported feature \"" + key.wireName() + "\""),
                    rejected.getMessage());
        }
    }

    @Test
    void everyPolicyKeyOfThisDirectionHasAScenario() {
        Set<LossKey> expected = EnumSet.noneOf(LossKey.class);
        for (LossKey k : LossKey.values()) {
            if (k.kind() == LossKey.Kind.POLICY && k.directions().contains(Direction.MESSAGES_CHAT)) {
                expected.add(k);
            }
        }
        assertEquals(expected, scenarios().keySet());
    }

    @Test
    void defaultApprovalsMakeClaudeCodeShapedTrafficWork() {
        TranscodeMapping m = Mappings.cli();
        for (LossKey k : new LossKey[] {LossKey.MID_CONVERSATION_SYSTEM, LossKey.TOOL_RESULT_ERROR_STATUS, LossKey.ANTHROPIC_CONTROLS,
                LossKey.AUTHENTICATED_THINKING, LossKey.REQUEST_REASONING, LossKey.USAGE_UNKNOWN}) {
            assertTrue(run(m, scenarios().get(k)).report().has(k), k.wireName());
        }
        TranscodeMapping strict = mapping(Set.of(), Set.of());
        assertThrows(TranscodeException.Unsupported.class, () -> run(strict, scenarios().get(LossKey.TOOL_RESULT_ERROR_STATUS)));
    }

    @Test
    void notesAreRecordedWithoutADecision() {
        TranscodeMapping strict = mapping(EnumSet.of(ChatCapability.REASONING_EFFORT), Set.of());
        Prepared scrub = Transcoder.of(strict).prepare(req("[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]}]},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"shaper-synth-thinking-1\"},{\"type\":\"text\",\"text\":\"a\"}]}]",
                "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":10}").getBytes(), null);
        assertTrue(scrub.report().has(LossKey.TOOL_RESULT_TEXT_JOIN));
        assertTrue(scrub.report().has(LossKey.SYNTHETIC_THINKING_SCRUBBED));
        assertTrue(scrub.report().has(LossKey.THINKING_BUDGET_MAPPED));
        Prepared disabled = Transcoder.of(strict).prepare(req(USER, "\"thinking\":{\"type\":\"disabled\"}").getBytes(), null);
        assertTrue(disabled.report().has(LossKey.THINKING_DISABLED_ELIDED));
        ConversionReport r = new ConversionReport(LossPolicy.STRICT);
        for (int i = 0; i < ConversionReport.MAX_ENTRIES + 10; i++) {
            r.note(LossKey.TOOL_RESULT_TEXT_JOIN, "x");
        }
        assertEquals(ConversionReport.MAX_ENTRIES, r.entries().size());
        assertTrue(r.has(LossKey.REPORT_OVERFLOW));
    }
}
