package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;
import shaper.main.ShaperMain;
import shaper.settings.ProviderConfig;

/** Every documented transcoding startup error, and the additive default layers. */
class TranscodeFlagsTest {
    private static final String UP = "http://127.0.0.1:1";

    private record Result(int code, String err) {
    }

    private static Result run(String... flags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", UP));
        argv.addAll(List.of(flags));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ShaperMain.run(argv.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, err.toString(StandardCharsets.UTF_8));
    }

    private static void fails(String expected, String... flags) {
        Result r = run(flags);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains(expected), "expected \"" + expected + "\" in: " + r.err());
    }

    private static TranscodeMapping mapping(String... flags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", UP));
        argv.addAll(List.of(flags));
        ProviderConfig p = assertInstanceOf(Invocation.Run.class, CommandLineParser.parse(argv)).config().providers().get(0);
        assertEquals(1, p.transcode().mappings().size());
        return p.transcode().mappings().get(0);
    }

    @Test
    void presetMapsOnlyPostOnTheMessagesRoute() {
        TranscodeMapping m = mapping("-transcode-messages-chat");
        assertEquals(TranscodeRoute.MESSAGES_CHAT, m.route());
        assertTrue(m.route().matches("POST", "/v1/messages"));
        assertTrue(m.route().matches("POST", "/V1/messages/"));
        assertTrue(!m.route().matches("GET", "/v1/messages"));
        assertTrue(!m.route().matches("POST", "/v1/messages/count_tokens"));
    }

    @Test
    void defaultsAreTheSpecLayersAndFlagsAddToThem() {
        TranscodeMapping m = mapping("-transcode-messages-chat");
        assertEquals(ChatCapability.cliDefaults(), m.capabilities());
        assertEquals(Set.of("beta"), m.allowedQuery());
        assertEquals(LossPolicy.cliDefaults(), m.policy().approved());
        TranscodeMapping more = mapping("-transcode-messages-chat", "-transcode-chat-capability", "image_input,stop_sequences",
                "-transcode-allow-loss", "top_k", "-transcode-allow-client-query", "api-version");
        assertTrue(more.has(ChatCapability.IMAGE_INPUT) && more.has(ChatCapability.STOP_SEQUENCES) && more.has(ChatCapability.PARALLEL_TOOL_CALLS));
        assertTrue(more.policy().approves(LossKey.TOP_K) && more.policy().approves(LossKey.USAGE_UNKNOWN));
        assertEquals(Set.of("beta", "api-version"), more.allowedQuery());
    }

    @Test
    void negationWithdrawsADefaultAndAPositiveOfAnotherNameSurvives() {
        TranscodeMapping m = mapping("-transcode-messages-chat", "-transcode-chat-capability", "!provider_reasoning_thinking",
                "-transcode-chat-capability", "provider_reasoning_text", "-transcode-allow-loss", "!tool_result_error_status",
                "-transcode-allow-client-query", "!beta");
        assertTrue(!m.has(ChatCapability.PROVIDER_REASONING_THINKING) && m.has(ChatCapability.PROVIDER_REASONING_TEXT));
        assertTrue(!m.policy().approves(LossKey.TOOL_RESULT_ERROR_STATUS));
        assertEquals(Set.of(), m.allowedQuery());
    }

    @Test
    void strictDefaultsStartFromABlankSlate() {
        TranscodeMapping m = mapping("-transcode-messages-chat", "-transcode-strict-defaults", "-transcode-allow-loss", "usage_unknown",
                "-transcode-allow-client-query", "api-version");
        assertEquals(Set.of(), m.capabilities());
        assertEquals(Set.of(LossKey.USAGE_UNKNOWN), m.policy().approved());
        assertEquals(Set.of("api-version"), m.allowedQuery());
    }

    @Test
    void unknownNamesPositiveOrNegatedFailAtStartup() {
        fails("-transcode-chat-capability: unknown name \"warp_drive\"", "-transcode-messages-chat", "-transcode-chat-capability", "warp_drive");
        fails("-transcode-chat-capability: unknown name \"!warp_drive\"", "-transcode-messages-chat", "-transcode-chat-capability", "!warp_drive");
        fails("-transcode-allow-loss: unknown name \"everything\"", "-transcode-messages-chat", "-transcode-allow-loss", "everything");
        fails("-transcode-allow-loss: unknown name \"!nope\"", "-transcode-messages-chat", "-transcode-allow-loss", "!nope");
        // a note is recorded, never approved: it is not a loss-policy name
        fails("-transcode-allow-loss: unknown name \"legacy_function_call\"", "-transcode-messages-chat", "-transcode-allow-loss",
                "legacy_function_call");
        fails("-transcode-allow-client-query: unknown name \"a=b\"", "-transcode-messages-chat", "-transcode-allow-client-query", "a=b");
    }

    @Test
    void anUnknownNameListsTheValidOnes() {
        fails("-transcode-chat-capability: unknown name \"warp_drive\" (valid names: developer_role, image_input,",
                "-transcode-messages-chat", "-transcode-chat-capability", "warp_drive");
        fails("-transcode-allow-loss: unknown name \"everything\" (valid names: previous_response_id,", "-transcode-messages-chat",
                "-transcode-allow-loss", "everything");
        Result r = run("-transcode-messages-chat", "-transcode-allow-loss", "everything");
        assertTrue(r.err().contains("top_k") && r.err().contains("stop_sequences"), r.err());
        assertTrue(!r.err().contains("legacy_function_call"), "notes are not loss-policy names: " + r.err());
    }

    @Test
    void aNameGivenBothWaysIsAConflict() {
        fails("conflicting values for \"image_input\": given both positively and negated (!image_input)", "-transcode-messages-chat",
                "-transcode-chat-capability", "image_input", "-transcode-chat-capability", "!image_input");
        fails("conflicting values for \"top_k\"", "-transcode-messages-chat", "-transcode-allow-loss", "top_k,!top_k");
        fails("conflicting values for \"beta\"", "-transcode-messages-chat", "-transcode-allow-client-query", "beta",
                "-transcode-allow-client-query", "!beta");
    }

    @Test
    void badRoutesFailAtStartup() {
        fails("chat-completions is not a valid client protocol; it is upstream-only", "-transcode-route",
                "chat-completions@/v1/chat/completions=chat-completions@/v1/chat/completions");
        fails("-transcode-route \"messages@/v1/messages\": expected clientProto@clientPath=upstreamProto@upstreamPath",
                "-transcode-route", "messages@/v1/messages");
        fails("must not contain ? or #", "-transcode-route", "messages@/v1/mess#ages=chat-completions@/v1/chat/completions");
        fails("unknown transcode protocol \"gemini\"", "-transcode-route", "gemini@/v1/x=chat-completions@/v1/chat/completions");
        fails("duplicate transcode route for POST /v1/messages", "-transcode-messages-chat", "-transcode-route",
                "messages@/V1/messages/=chat-completions@/v1/chat/completions");
    }

    @Test
    void bothMessagesPresetsAndAStrictnessFreeMessagesResponsesMappingFail() {
        fails("-transcode-messages-chat and -transcode-messages-responses both map /v1/messages; enable only one",
                "-transcode-messages-chat", "-transcode-messages-responses");
        fails("requires -transcode-allow-loss tool_schema_strictness", "-transcode-messages-responses");
    }

    @Test
    void customRouteAndModelMap() {
        TranscodeMapping m = mapping("-transcode-route", "messages@/anthropic/v1/messages=chat-completions@/openai/v1/chat/completions",
                "-transcode-model", "claude-sonnet=qwen3-coder");
        assertEquals("/anthropic/v1/messages", m.route().clientPath());
        assertEquals("/openai/v1/chat/completions", m.route().upstreamPath());
        assertEquals(java.util.Map.of("claude-sonnet", "qwen3-coder"), m.models());
        fails("duplicate -transcode-model client model \"a\"", "-transcode-messages-chat", "-transcode-model", "a=b", "-transcode-model", "a=c");
        fails("-transcode-model \"a\" (expected: client=upstream)", "-transcode-messages-chat", "-transcode-model", "a");
    }

    @Test
    void sizeLimitsMustBePositiveAndFlagsNeedAMapping() {
        fails("must be > 0", "-transcode-messages-chat", "-transcode-max-request-mb", "0");
        fails("must be > 0", "-transcode-messages-chat", "-transcode-max-response-mb", "-1");
        fails("too large", "-transcode-messages-chat", "-transcode-max-request-mb", "9223372036854775807");
        fails("transcoding flags have no effect without a mapping", "-transcode-allow-loss", "top_k");
        TranscodeMapping m = mapping("-transcode-messages-chat", "-transcode-max-request-mb", "2", "-transcode-max-response-mb", "3");
        assertEquals(2L << 20, m.limits().requestBytes());
        assertEquals(3L << 20, m.limits().responseBytes());
    }

    @Test
    void authResolutionTableStartupErrors() {
        fails("-transcode-auth bearer requires a secret source or inbound credentials", "-transcode-messages-chat", "-transcode-auth", "bearer");
        fails("-transcode-auth-source provider cannot be combined with -transcode-auth", "-transcode-messages-chat", "-transcode-auth",
                "bearer", "-transcode-auth-source", "provider");
        fails("-transcode-auth-source provider cannot be combined", "-transcode-messages-chat", "-transcode-auth-header", "X-Key",
                "-transcode-auth-source", "provider");
        fails("-transcode-auth header requires -transcode-auth-header NAME", "-transcode-messages-chat", "-transcode-auth", "header",
                "-transcode-auth-source", "env:K");
        fails("-transcode-auth: \"magic\"", "-transcode-messages-chat", "-transcode-auth", "magic", "-transcode-auth-source", "env:K");
        fails("a literal secret is never accepted", "-transcode-messages-chat", "-transcode-auth-source", "sk-live-123");
        fails("-transcode-anthropic-version", "-transcode-messages-chat", "-transcode-anthropic-version", "bad version!");
        Result r = run("-transcode-messages-chat", "-transcode-auth-source", "sk-live-123");
        assertTrue(!r.err().contains("sk-live-123"), "a pasted secret is never echoed: " + r.err());
    }

    @Test
    void authResolutionTableValidCombinations() {
        for (String[] flags : List.of(new String[] {}, new String[] {"-transcode-auth", "none"},
                new String[] {"-transcode-auth", "none", "-transcode-auth-source", "inbound"},
                new String[] {"-transcode-auth-source", "inbound"}, new String[] {"-transcode-auth-source", "env:K"},
                new String[] {"-transcode-auth", "bearer", "-transcode-auth-source", "inbound"},
                new String[] {"-transcode-auth", "header", "-transcode-auth-header", "X-Key", "-transcode-auth-source", "file:/k"})) {
            List<String> argv = new ArrayList<>(List.of("-transcode-messages-chat"));
            argv.addAll(List.of(flags));
            mapping(argv.toArray(String[]::new));
        }
    }
}
