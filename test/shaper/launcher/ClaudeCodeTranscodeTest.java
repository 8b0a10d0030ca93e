package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.LocalRefusals;
import shaper.testing.RunningShaper;

/**
 * Issue "Transcoding I" done-when: the real Claude Code CLI, started with {@code ./claude.sh} (which
 * reuses the healthy shaper on its port), completes a prompt and a Bash tool round trip through
 * {@code -transcode-messages-chat} against the probe's Chat Completions fixture. The fixture answers
 * {@code tool said: <output>} only when the last chat message is {@code role: tool}, so the result
 * proves the tool's output went upstream as a tool message.
 */
class ClaudeCodeTranscodeTest {
    private static final String REPLY = "Hi from a chat-only upstream.";

    @TempDir
    Path dir;

    private record Run(int exit, JsonNode result, String stdout, String stderr) {
    }

    private Run claude(String name, Map<String, String> env, List<String> args) throws Exception {
        Path out = Files.createDirectories(dir.resolve(name));
        Path work = Files.createDirectories(dir.resolve("project"));
        Process p = LauncherScript.start(args, env, work, out);
        int exit = LauncherScript.await(p, LauncherScript.START_BOUND.plusSeconds(120), out);
        String stdout = LauncherScript.read(out.resolve("stdout"));
        String stderr = LauncherScript.read(out.resolve("stderr"));
        JsonNode result = stdout.isBlank() ? null : new ObjectMapper().readTree(stdout);
        return new Run(exit, result, stdout, stderr);
    }

    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void claudeCodeCompletesAPromptAndABashRoundTripThroughTheTranscoder() throws Exception {
        roundTrip("/chat", "/chat/v1/chat/completions", "-transcode-messages-chat");
    }

    /** Issue "Transcoding II": the same through {@code -transcode-messages-responses} against the probe's Responses fixture. */
    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void claudeCodeCompletesAPromptAndABashRoundTripOnAResponsesUpstream() throws Exception {
        roundTrip("/responses", "/responses/v1/responses", "-transcode-messages-responses", "-transcode-allow-loss", "tool_schema_strictness");
    }

    private void roundTrip(String fixture, String hits, String... transcodeFlags) throws Exception {
        Path claude = RealClaudeCode.install();
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withReply(REPLY));
        int port = InProcessLaunch.freePort();
        List<String> argv = new java.util.ArrayList<>(List.of("-bind", "127.0.0.1:" + port, "-upstream", probe.uri(fixture).toString()));
        argv.addAll(List.of(transcodeFlags));
        try (RunningShaper shaper = RunningShaper.start(argv.toArray(String[]::new))) {
            Map<String, String> env = LauncherScript.environment(Files.createDirectories(dir.resolve("home")),
                    Files.createDirectories(dir.resolve("tmp")));
            env.put("SHAPER_PORT", Integer.toString(port));
            env.put("SHAPER_CLAUDE", claude.toString());
            env.put("ANTHROPIC_API_KEY", "dummy");
            env.put("DISABLE_TELEMETRY", "1");
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");

            Run hi = claude("hi", env, List.of("-p", "say hi", "--output-format", "json"));
            assertEquals(0, hi.exit(), "stdout:\n" + hi.stdout() + "\nstderr:\n" + hi.stderr());
            assertEquals(REPLY, hi.result().path("result").asText(), hi.stdout());
            assertFalse(hi.result().path("is_error").asBoolean(true), hi.stdout());
            assertTrue(hi.stderr().contains("reusing the shaper on"), hi.stderr());

            Run bash = claude("bash", env, List.of("-p", "please [[bash:echo transcoded-ok]]", "--allowedTools", "Bash",
                    "--output-format", "json"));
            assertEquals(0, bash.exit(), "stdout:\n" + bash.stdout() + "\nstderr:\n" + bash.stderr());
            assertEquals("tool said: transcoded-ok", bash.result().path("result").asText(), bash.stdout());
            assertTrue(bash.result().path("num_turns").asInt() >= 2, bash.stdout());

            assertTrue(probe.stats().snapshot().hits(hits) >= 3, probe.stats().snapshot().hits().toString());
            RunningShaper.await("transcoded exchanges logged", Duration.ofSeconds(10),
                    () -> !shaper.logLines("path=/v1/messages status=200").isEmpty());
            assertTrue(shaper.logLines("[local_request_conversion_error]").isEmpty(), shaper.stdout());
            LocalRefusals.assertNone(shaper); // Claude Code retries a refused turn silently with features off: read the journal
        } finally {
            probe.stop();
        }
    }
}
