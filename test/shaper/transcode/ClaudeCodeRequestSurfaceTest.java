package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.ProjectRoot;
import shaper.transcode.pipeline.Prepared;

/**
 * The request surface of today's Claude Code (2.1.332), captured from the real client against a
 * local recording fake and trimmed ({@code test/shaper/transcode/field/claude_code_2_1_332/}): the
 * first turn of {@code -p} and of an interactive session, the turn that carries a tool result, and
 * the session-title request. Each converts the first time on both upstream dialects under the CLI
 * defaults, and the strict policy rejects each dropped field by its key.
 */
class ClaudeCodeRequestSurfaceTest {
    private static final List<String> CAPTURES = List.of("print", "interactive", "tool_result", "title");
    /** What must never reach an upstream of another dialect. */
    private static final List<String> ANTHROPIC_ONLY = List.of("safeguards", "classifier_context", "defer_loading", "output_config",
            "context_management", "cache_control", "clear_thinking", "\"display\"");

    private static String capture(String name) throws Exception {
        return Files.readString(ProjectRoot.find().resolve("test/shaper/transcode/field/claude_code_2_1_332").resolve(name + "_request_field.json"),
                StandardCharsets.UTF_8);
    }

    private static TranscodeMapping responses(Set<ChatCapability> caps, Set<LossKey> approved) {
        return new TranscodeMapping(TranscodeRoute.MESSAGES_RESPONSES, caps, new LossPolicy(approved), Set.of("beta"), Map.of(),
                TranscodeLimits.defaults());
    }

    /** {@code -transcode-messages-responses -transcode-allow-loss tool_schema_strictness} (the flag the preset needs at startup). */
    private static TranscodeMapping responsesDefaults() {
        Set<LossKey> approved = EnumSet.copyOf(LossPolicy.cliDefaults());
        approved.add(LossKey.TOOL_SCHEMA_STRICTNESS);
        return responses(ChatCapability.cliDefaults(), approved);
    }

    private static JsonNode body(Prepared p) throws Exception {
        return Mappings.JSON.readTree(p.body());
    }

    @Test
    void everyCapturedRequestConvertsTheFirstTimeOnBothUpstreams() throws Exception {
        for (String name : CAPTURES) {
            for (TranscodeMapping m : List.of(Mappings.cli(), responsesDefaults())) {
                Prepared p = Mappings.prepare(m, capture(name));
                String out = new String(p.body(), StandardCharsets.UTF_8);
                for (String gone : ANTHROPIC_ONLY) {
                    assertFalse(out.contains(gone), name + " -> " + m.route().direction().label() + ": " + gone + " crossed");
                }
            }
        }
    }

    @Test
    void interactiveFirstTurnOnAChatUpstream() throws Exception {
        Prepared p = Mappings.prepare(Mappings.cli(), capture("interactive"));
        JsonNode chat = body(p);
        JsonNode messages = chat.get("messages");
        assertEquals("system", messages.get(0).get("role").asText());
        String system = messages.get(0).get("content").asText();
        assertTrue(system.contains("You are Claude Code"), system);
        assertTrue(system.contains("# Environment"), "the system entry of messages joins the one system message: " + system);
        for (int i = 1; i < messages.size(); i++) {
            assertFalse(messages.get(i).get("role").asText().equals("system"), messages.toString());
        }
        assertEquals("user", messages.get(messages.size() - 1).get("role").asText());
        List<String> tools = new java.util.ArrayList<>();
        chat.get("tools").forEach(t -> tools.add(t.path("function").path("name").asText()));
        assertEquals(13, tools.size(), tools.toString());
        assertTrue(tools.contains("DeferredToolPlaceholder") && tools.contains("ToolSearch") && tools.contains("Bash"), tools.toString());
        assertFalse(chat.has("reasoning_effort"), "reasoning_effort is opt-in");
        for (LossKey k : List.of(LossKey.ANTHROPIC_SAFEGUARDS, LossKey.ANTHROPIC_CONTROLS, LossKey.MID_CONVERSATION_SYSTEM,
                LossKey.REQUEST_REASONING, LossKey.DEFERRED_TOOL_LOADING, LossKey.THINKING_DISPLAY)) {
            assertTrue(p.report().has(k), k.wireName() + ": " + p.report().summary());
        }
        assertTrue(p.report().summary().contains("request_reasoning@messages[1].output_config.effort"), p.report().summary());
        assertTrue(p.report().summary().contains("anthropic_controls@context_management.edits[0]"), p.report().summary());
        assertTrue(p.report().summary().contains("anthropic_safeguards@safeguards[0]"), p.report().summary());
    }

    @Test
    void effortBecomesReasoningEffortUnderItsCapability() throws Exception {
        for (String name : List.of("print", "interactive", "tool_result")) {
            JsonNode chat = Mappings.chatRequest(Mappings.cli(Set.of(ChatCapability.REASONING_EFFORT), Set.of()), capture(name));
            assertEquals("medium", chat.path("reasoning_effort").asText(), name);
        }
    }

    @Test
    void interactiveFirstTurnOnAResponsesUpstream() throws Exception {
        Prepared p = Mappings.prepare(responsesDefaults(), capture("interactive"));
        JsonNode r = body(p);
        assertTrue(r.path("instructions").asText().contains("You are Claude Code"));
        JsonNode input = r.get("input");
        assertEquals("user", input.get(0).path("role").asText());
        assertEquals("system", input.get(1).path("role").asText(), "the system entry keeps its place");
        assertTrue(input.get(1).path("content").get(0).path("text").asText().startsWith("# Environment"));
        assertEquals("medium", r.path("reasoning").path("effort").asText());
        assertEquals(13, r.get("tools").size());
        assertTrue(p.report().has(LossKey.ANTHROPIC_SAFEGUARDS));
    }

    @Test
    void toolResultTurnKeepsTheCallAndItsOutput() throws Exception {
        JsonNode messages = Mappings.chatRequest(Mappings.cli(), capture("tool_result")).get("messages");
        JsonNode tool = messages.get(messages.size() - 1);
        assertEquals("tool", tool.path("role").asText());
        assertEquals("interactive-ok", tool.path("content").asText());
        JsonNode call = messages.get(messages.size() - 2);
        assertEquals(tool.path("tool_call_id").asText(), call.path("tool_calls").get(0).path("id").asText());
        assertTrue(messages.get(0).path("content").asText().contains("# Environment"), "a string system entry joins the system message");
    }

    @Test
    void titleRequestsAnswerFormatIsNativeOnResponsesAndACapabilityOnChat() throws Exception {
        JsonNode r = body(Mappings.prepare(responsesDefaults(), capture("title")));
        JsonNode format = r.path("text").path("format");
        assertEquals("json_schema", format.path("type").asText());
        assertEquals("title", format.path("schema").path("required").get(0).asText());
        assertFalse(format.path("name").asText().isEmpty(), "Responses requires a format name");

        JsonNode chat = Mappings.chatRequest(Mappings.cli(Set.of(ChatCapability.STRUCTURED_OUTPUTS), Set.of()), capture("title"));
        assertEquals("json_schema", chat.path("response_format").path("type").asText());
        assertEquals("object", chat.path("response_format").path("json_schema").path("schema").path("type").asText());

        Prepared plain = Mappings.prepare(Mappings.cli(), capture("title"));
        assertFalse(body(plain).has("response_format"));
        assertTrue(plain.report().summary().contains("anthropic_controls@output_config.format"), plain.report().summary());
    }

    @Test
    void strictPolicyRejectsEachDroppedFieldByItsKey() throws Exception {
        Map<LossKey, List<TranscodeRoute>> reached = Map.of(
                LossKey.ANTHROPIC_SAFEGUARDS, List.of(TranscodeRoute.MESSAGES_CHAT, TranscodeRoute.MESSAGES_RESPONSES),
                LossKey.ANTHROPIC_CONTROLS, List.of(TranscodeRoute.MESSAGES_CHAT, TranscodeRoute.MESSAGES_RESPONSES),
                LossKey.MID_CONVERSATION_SYSTEM, List.of(TranscodeRoute.MESSAGES_CHAT),
                LossKey.REQUEST_REASONING, List.of(TranscodeRoute.MESSAGES_CHAT));
        for (Map.Entry<LossKey, List<TranscodeRoute>> e : reached.entrySet()) {
            Set<LossKey> allBut = EnumSet.noneOf(LossKey.class);
            for (LossKey k : LossKey.values()) {
                if (k.kind() == LossKey.Kind.POLICY && k != e.getKey()) {
                    allBut.add(k);
                }
            }
            for (TranscodeRoute route : e.getValue()) {
                TranscodeMapping m = new TranscodeMapping(route, ChatCapability.cliDefaults(), new LossPolicy(allBut), Set.of("beta"), Map.of(),
                        TranscodeLimits.defaults());
                TranscodeException.Unsupported rejected = assertThrows(TranscodeException.Unsupported.class,
                        () -> Mappings.prepare(m, capture("interactive")), e.getKey().wireName() + " on " + route.direction().label());
                assertEquals(e.getKey(), rejected.key());
                assertEquals(400, rejected.status());
            }
        }
        assertThrows(TranscodeException.Unsupported.class, () -> Mappings.prepare(Mappings.strict(Set.of()), capture("print")));
    }

    @Test
    void theLatestSystemEntryEffortWinsAndEffortsAboveHighBecomeHigh() throws Exception {
        TranscodeMapping m = Mappings.cli(Set.of(ChatCapability.REASONING_EFFORT), Set.of());
        String messages = "[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"system\",\"output_config\":{\"effort\":\"low\"}}]";
        JsonNode chat = Mappings.chatRequest(m, Mappings.request(messages, "\"output_config\":{\"effort\":\"high\"},\"thinking\":{\"type\":\"adaptive\"}"));
        assertEquals("low", chat.path("reasoning_effort").asText());
        assertEquals(1, chat.get("messages").size(), "an entry with only output_config adds no turn: " + chat);
        Prepared max = Mappings.prepare(m, Mappings.request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"output_config\":{\"effort\":\"max\"}"));
        assertEquals("high", body(max).path("reasoning_effort").asText());
        assertTrue(max.report().has(LossKey.EFFORT_MAPPED));
        JsonNode disabled = Mappings.chatRequest(m, Mappings.request("[{\"role\":\"user\",\"content\":\"x\"}]",
                "\"output_config\":{\"effort\":\"high\"},\"thinking\":{\"type\":\"disabled\"}"));
        assertFalse(disabled.has("reasoning_effort"), "disabled thinking stays disabled");
    }

    @Test
    void aToolSearchResultNamesTheToolItLoaded() throws Exception {
        String messages = "[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\","
                + "\"name\":\"ToolSearch\",\"input\":{\"query\":\"select:WebFetch\"}}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                + "\"tool_use_id\":\"t1\",\"content\":[{\"type\":\"tool_reference\",\"tool_name\":\"WebFetch\"}]}]}]";
        String tools = "\"tools\":[{\"name\":\"ToolSearch\",\"input_schema\":{\"type\":\"object\"}},{\"name\":\"WebFetch\","
                + "\"input_schema\":{\"type\":\"object\"},\"defer_loading\":true}]";
        Prepared p = Mappings.prepare(Mappings.cli(), Mappings.request(messages, tools));
        JsonNode chat = body(p);
        JsonNode tool = chat.get("messages").get(chat.get("messages").size() - 1);
        assertEquals("tool", tool.path("role").asText());
        assertEquals("[tool_reference] WebFetch", tool.path("content").asText());
        assertEquals("WebFetch", chat.get("tools").get(1).path("function").path("name").asText(), "the deferred tool is sent in full");
        assertTrue(p.report().has(LossKey.TOOL_REFERENCE_TEXT));
        assertTrue(p.report().has(LossKey.DEFERRED_TOOL_LOADING));
    }

    @Test
    void malformedSurfaceFieldsAreClientErrorsNamingThePath() {
        String user = "[{\"role\":\"user\",\"content\":\"x\"}]";
        Map<String, String> bad = Map.of(
                Mappings.request(user, "\"output_config\":{\"effort\":\"extreme\"}"), "output_config.effort",
                Mappings.request(user, "\"output_config\":{\"verbosity\":\"low\"}"), "output_config.verbosity",
                Mappings.request(user, "\"safeguards\":{\"type\":\"dangerous_tool_use\"}"), "safeguards",
                Mappings.request(user, "\"thinking\":{\"type\":\"adaptive\",\"display\":\"verbose\"}"), "thinking.display",
                Mappings.request(user, "\"context_management\":{\"edits\":[{\"keep\":\"all\"}]}"), "context_management.edits[0].type",
                Mappings.request("[{\"role\":\"user\",\"content\":\"x\",\"output_config\":{}}]", ""), "messages[0].output_config",
                Mappings.request("[{\"role\":\"system\"}]", ""), "messages[0].content",
                Mappings.request("[{\"role\":\"system\",\"content\":\"s\",\"output_config\":{\"format\":{}}}]", ""),
                "messages[0].output_config.format",
                Mappings.request(user, "\"output_config\":{\"format\":{\"type\":\"json_object\"}}"), "output_config.format.type",
                Mappings.request(user, "\"tools\":[{\"name\":\"a\",\"input_schema\":{},\"defer_loading\":\"yes\"}]"), "tools[0].defer_loading");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            TranscodeException.Invalid invalid = assertThrows(TranscodeException.Invalid.class, () -> Mappings.prepare(Mappings.cli(), e.getKey()),
                    e.getKey());
            assertTrue(invalid.getMessage().startsWith(e.getValue()), e.getValue() + " <- " + invalid.getMessage());
            assertEquals(400, invalid.status());
        }
    }
}
