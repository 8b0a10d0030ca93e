package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.transcode.responses.ResponsesFixtures.bytes;
import static shaper.transcode.responses.ResponsesFixtures.json;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ChatCapability;
import shaper.transcode.LossKey;
import shaper.transcode.LossPolicy;
import shaper.transcode.TranscodeException;
import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.Transcoder;

/** Responses requests (Codex's among them) decoded strictly and rendered as Chat Completions requests. */
class ResponsesRequestDecodeTest {
    private static final Transcoder DEFAULTS = Transcoder.of(ResponsesFixtures.responsesChat());

    private static JsonNode chat(Prepared p) {
        return json(p.body());
    }

    @Test
    void codexNamespaceRequestFlattensToolsAndKeepsTheConversation() {
        Prepared p = DEFAULTS.prepare(ResponsesFixtures.field("codex_namespace_request_field.json"), null);
        JsonNode chat = chat(p);
        List<String> names = new ArrayList<>();
        chat.get("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
        // "search" exists in two namespaces: both are namespace__child; unique children keep their bare names
        assertEquals(List.of("shell_command", "update_plan", "spawn_agent", "multi_agent_v1__search", "read_page", "mcp__docs__search"), names);
        assertEquals("mcp__docs", p.toolNames().origin("read_page").namespace());
        assertEquals("search", p.toolNames().origin("mcp__docs__search").name());
        assertTrue(p.report().has(LossKey.BUILTIN_TOOLS), "web_search is dropped under builtin_tools");
        JsonNode messages = chat.get("messages");
        assertEquals("system", messages.get(0).path("role").asText());
        assertTrue(messages.get(0).path("content").asText().startsWith("You are Codex"));
        assertTrue(messages.get(0).path("content").asText().contains("<permissions instructions>"), "developer text joins the one system message");
        assertEquals(1, countRole(messages, "system"));
        JsonNode call = find(messages, "assistant", 0);
        assertEquals("call_shell_1", call.path("tool_calls").get(0).path("id").asText());
        assertEquals("shell_command", call.path("tool_calls").get(0).path("function").path("name").asText());
        JsonNode tool = find(messages, "tool", 0);
        assertEquals("call_shell_1", tool.path("tool_call_id").asText());
        assertEquals("README.md\nsrc\n", tool.path("content").asText());
        JsonNode second = find(messages, "assistant", 1);
        assertEquals("Two entries. Reading the docs index next.", second.path("content").asText());
        assertEquals("read_page", second.path("tool_calls").get(0).path("function").path("name").asText());
        assertEquals("# Index\n- intro", find(messages, "tool", 1).path("content").asText());
        assertEquals("Now spawn a helper agent.", messages.get(messages.size() - 1).path("content").asText());
        assertTrue(chat.path("stream").asBoolean());
        assertTrue(chat.path("stream_options").path("include_usage").asBoolean());
        assertFalse(chat.has("reasoning_effort"), "reasoning_effort is opt-in");
        assertTrue(p.report().has(LossKey.REQUEST_REASONING));
        assertTrue(p.report().has(LossKey.REASONING_SUMMARY));
        assertTrue(p.report().has(LossKey.RESPONSES_CONTROLS));
        assertTrue(p.report().has(LossKey.DEVELOPER_ROLE));
        assertEquals(false, chat.path("parallel_tool_calls").asBoolean(true));
        assertEquals("auto", chat.path("tool_choice").asText());
    }

    /**
     * Codex 0.171.0's first {@code codex exec} request, captured against a local recording fake and
     * trimmed: every member (message item ids, a namespace of agent tools, web_search with
     * external_web_access, include, prompt_cache_key, client_metadata) is known; the default policy
     * converts it and the strict one rejects its controls by key.
     */
    @Test
    void codex0171ExecFirstTurnConvertsUnderTheDefaults() {
        Prepared p = DEFAULTS.prepare(ResponsesFixtures.field("codex_0_171_0_exec_request_field.json"), null);
        JsonNode chat = chat(p);
        List<String> names = new ArrayList<>();
        chat.get("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
        assertTrue(names.containsAll(List.of("exec_command", "write_stdin", "view_image", "close_agent", "update_goal")), names.toString());
        JsonNode messages = chat.get("messages");
        assertEquals(1, countRole(messages, "system"));
        assertTrue(messages.get(0).path("content").asText().startsWith("You are a coding agent running in the Codex CLI"));
        assertEquals("say hi", messages.get(messages.size() - 1).path("content").asText());
        assertTrue(chat.path("stream").asBoolean());
        for (LossKey k : List.of(LossKey.BUILTIN_TOOLS, LossKey.RESPONSES_CONTROLS, LossKey.REASONING_SUMMARY, LossKey.DEVELOPER_ROLE)) {
            assertTrue(p.report().has(k), k.wireName() + ": " + p.report().summary());
        }
        String out = new String(p.body(), java.nio.charset.StandardCharsets.UTF_8);
        for (String gone : List.of("prompt_cache_key", "client_metadata", "encrypted_content", "web_search", "external_web_access")) {
            assertFalse(out.contains(gone), gone + " crossed");
        }
        Transcoder strict = Transcoder.of(ResponsesFixtures.responsesChat(ChatCapability.cliDefaults(), EnumSet.noneOf(LossKey.class)));
        assertThrows(TranscodeException.Unsupported.class, () -> strict.prepare(ResponsesFixtures.field("codex_0_171_0_exec_request_field.json"), null));
    }

    @Test
    void codexMultiturnWithEmptyItemStatusDecodes() {
        Prepared p = DEFAULTS.prepare(ResponsesFixtures.field("codex_multiturn_request_field.json"), null);
        JsonNode messages = chat(p).get("messages");
        assertEquals("first question", find(messages, "user", 0).path("content").asText());
        assertEquals("first answer", find(messages, "assistant", 0).path("content").asText());
        assertEquals("second question", find(messages, "user", 1).path("content").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"background\": true", "\"max_tool_calls\": 3", "\"prompt\": {\"id\": \"pmpt_1\"}",
            "\"safety_identifier\": \"user-1\"", "\"status\": \"completed\""})
    void conversationStateControlsAreErrorsUnderEveryPolicy(String member) {
        Transcoder permissive = Transcoder.of(ResponsesFixtures.responsesChat(EnumSet.allOf(ChatCapability.class), ResponsesFixtures.everything()));
        String body = "{\"model\":\"m\",\"input\":\"hi\"," + member + "}";
        TranscodeException.Unsupported e = assertThrows(TranscodeException.Unsupported.class, () -> permissive.prepare(bytes(body), null));
        assertEquals(LossKey.RESPONSES_CONTROLS, e.key());
        assertEquals(400, e.status());
        String field = member.substring(1, member.indexOf('"', 1));
        assertEquals("transcode field " + field + " uses unsupported feature \"responses_controls\"", e.getMessage());
    }

    @Test
    void previousResponseIdIsALossRejectedByDefault() {
        byte[] body = bytes("{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"resp_1\"}");
        TranscodeException.Unsupported e = assertThrows(TranscodeException.Unsupported.class, () -> DEFAULTS.prepare(body, null));
        assertEquals("transcode field previous_response_id uses unsupported feature \"previous_response_id\"", e.getMessage());
        Transcoder approved = Transcoder.of(ResponsesFixtures.responsesChat(ChatCapability.cliDefaults(),
                ResponsesFixtures.defaultsPlus(LossKey.PREVIOUS_RESPONSE_ID)));
        assertTrue(approved.prepare(body, null).report().has(LossKey.PREVIOUS_RESPONSE_ID));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"model\":\"m\",\"input\":\"hi\",\"temprature\":1}",
            "{\"model\":\"m\",\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"x\",\"image_url\":\"u\"}]}]}",
            "{\"model\":\"m\",\"input\":[{\"type\":\"hologram\"}]}",
            "{\"model\":\"m\",\"input\":\"hi\",\"tools\":[{\"type\":\"teleport\"}]}",
            "{\"model\":\"m\",\"input\":[{\"type\":\"message\",\"role\":\"narrator\",\"content\":\"x\"}]}",
            "{\"input\":\"hi\"}",
            "[1,2]"})
    void malformedRequestsAreInvalid(String body) {
        TranscodeException.Invalid e = assertThrows(TranscodeException.Invalid.class, () -> DEFAULTS.prepare(bytes(body), null));
        assertEquals(400, e.status());
    }

    @Test
    void structuredOutputNeedsTheCapability() {
        byte[] body = bytes("{\"model\":\"m\",\"input\":\"hi\",\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"answer\","
                + "\"schema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}},\"strict\":true}}}");
        TranscodeException.Unsupported e = assertThrows(TranscodeException.Unsupported.class, () -> DEFAULTS.prepare(body, null));
        assertEquals(LossKey.STRUCTURED_OUTPUT, e.key());
        EnumSet<ChatCapability> caps = EnumSet.copyOf(ChatCapability.cliDefaults());
        caps.add(ChatCapability.STRUCTURED_OUTPUTS);
        JsonNode chat = chat(Transcoder.of(ResponsesFixtures.responsesChat(caps, LossPolicy.cliDefaults())).prepare(body, null));
        JsonNode rf = chat.path("response_format");
        assertEquals("json_schema", rf.path("type").asText());
        assertEquals("answer", rf.path("json_schema").path("name").asText());
        assertTrue(rf.path("json_schema").path("strict").asBoolean());
        assertEquals("object", rf.path("json_schema").path("schema").path("type").asText());
    }

    @Test
    void reasoningEffortAndDeveloperRoleWithTheirCapabilities() {
        EnumSet<ChatCapability> caps = EnumSet.copyOf(ChatCapability.cliDefaults());
        caps.add(ChatCapability.REASONING_EFFORT);
        caps.add(ChatCapability.DEVELOPER_ROLE);
        Transcoder t = Transcoder.of(ResponsesFixtures.responsesChat(caps, LossPolicy.cliDefaults()));
        Prepared p = t.prepare(bytes("{\"model\":\"m\",\"reasoning\":{\"effort\":\"high\"},\"input\":[{\"role\":\"developer\",\"content\":\"be brief\"},"
                + "{\"role\":\"user\",\"content\":\"hi\"}]}"), null);
        JsonNode chat = chat(p);
        assertEquals("high", chat.path("reasoning_effort").asText());
        assertEquals("developer", chat.path("messages").get(0).path("role").asText());
        assertFalse(p.report().has(LossKey.DEVELOPER_ROLE));
        Transcoder strict = Transcoder.of(ResponsesFixtures.responsesChat(EnumSet.noneOf(ChatCapability.class), EnumSet.noneOf(LossKey.class)));
        assertEquals(LossKey.DEVELOPER_ROLE, assertThrows(TranscodeException.Unsupported.class,
                () -> strict.prepare(bytes("{\"model\":\"m\",\"input\":[{\"role\":\"developer\",\"content\":\"x\"}]}"), null)).key());
        assertEquals(LossKey.REQUEST_REASONING, assertThrows(TranscodeException.Unsupported.class,
                () -> strict.prepare(bytes("{\"model\":\"m\",\"reasoning\":{\"effort\":\"low\"},\"input\":\"x\"}"), null)).key());
    }

    @Test
    void builtinToolChoiceIsRejectedAndAutoDanglingIsDropped() {
        byte[] named = bytes("{\"model\":\"m\",\"input\":\"x\",\"tools\":[{\"type\":\"web_search\"}],\"tool_choice\":{\"type\":\"web_search\"}}");
        assertEquals(LossKey.BUILTIN_TOOLS, assertThrows(TranscodeException.Unsupported.class, () -> DEFAULTS.prepare(named, null)).key());
        byte[] required = bytes("{\"model\":\"m\",\"input\":\"x\",\"tools\":[{\"type\":\"web_search\"}],\"tool_choice\":\"required\"}");
        assertThrows(TranscodeException.Unsupported.class, () -> DEFAULTS.prepare(required, null));
        JsonNode chat = chat(DEFAULTS.prepare(bytes("{\"model\":\"m\",\"input\":\"x\",\"tools\":[{\"type\":\"web_search\"}],\"tool_choice\":\"auto\"}"), null));
        assertFalse(chat.has("tools"));
        assertFalse(chat.has("tool_choice"));
        Transcoder noBuiltins = Transcoder.of(ResponsesFixtures.responsesChat(ChatCapability.cliDefaults(),
                EnumSet.complementOf(EnumSet.of(LossKey.BUILTIN_TOOLS, LossKey.MISSING_EVENT_NAME)).stream()
                        .filter(k -> k.kind() == LossKey.Kind.POLICY && LossPolicy.cliDefaults().contains(k))
                        .collect(java.util.stream.Collectors.toSet())));
        assertThrows(TranscodeException.Unsupported.class,
                () -> noBuiltins.prepare(bytes("{\"model\":\"m\",\"input\":\"x\",\"tools\":[{\"type\":\"web_search\"}]}"), null));
    }

    @Test
    void namedFunctionChoiceUsesTheFlatName() {
        String tools = "[{\"type\":\"function\",\"name\":\"search\",\"parameters\":{\"type\":\"object\"}},"
                + "{\"type\":\"namespace\",\"name\":\"mcp__web\",\"tools\":[{\"type\":\"function\",\"name\":\"search\",\"parameters\":{\"type\":\"object\"}}]}]";
        JsonNode chat = chat(DEFAULTS.prepare(bytes("{\"model\":\"m\",\"input\":\"x\",\"tools\":" + tools
                + ",\"tool_choice\":{\"type\":\"function\",\"name\":\"search\",\"namespace\":\"mcp__web\"}}"), null));
        assertEquals("mcp__web__search", chat.path("tool_choice").path("function").path("name").asText());
        assertEquals("search", chat.path("tools").get(0).path("function").path("name").asText());
    }

    @Test
    void imagesNeedTheCapabilityAndOriginalDetailIsALoss() {
        byte[] body = bytes("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"see\"},"
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64,AAAA\",\"detail\":\"original\"}]}]}");
        assertThrows(TranscodeException.Unsupported.class, () -> DEFAULTS.prepare(body, null));
        EnumSet<ChatCapability> caps = EnumSet.copyOf(ChatCapability.cliDefaults());
        caps.add(ChatCapability.IMAGE_INPUT);
        Transcoder images = Transcoder.of(ResponsesFixtures.responsesChat(caps, ResponsesFixtures.defaultsPlus(LossKey.IMAGE_DETAIL_ORIGINAL)));
        Prepared p = images.prepare(body, null);
        JsonNode content = chat(p).path("messages").get(0).path("content");
        assertEquals("image_url", content.get(1).path("type").asText());
        assertEquals("data:image/png;base64,AAAA", content.get(1).path("image_url").path("url").asText());
        assertTrue(p.report().has(LossKey.IMAGE_DETAIL_ORIGINAL));
    }

    private static int countRole(JsonNode messages, String role) {
        int n = 0;
        for (JsonNode m : messages) {
            n += m.path("role").asText().equals(role) ? 1 : 0;
        }
        return n;
    }

    private static JsonNode find(JsonNode messages, String role, int nth) {
        int n = 0;
        for (JsonNode m : messages) {
            if (m.path("role").asText().equals(role) && n++ == nth) {
                return m;
            }
        }
        throw new AssertionError("no " + role + " message #" + nth + " in " + messages);
    }
}
