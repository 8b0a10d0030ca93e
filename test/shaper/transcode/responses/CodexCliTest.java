package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.NpmPackage;
import shaper.testing.LocalRefusals;
import shaper.testing.RunningShaper;

/**
 * Issue "Transcoding II" done-when: the real Codex CLI ({@code codex exec}, pinned to the newest on
 * npm), configured
 * with a custom model provider whose {@code base_url} is the shaper, completes a prompt and a
 * function-tool round trip through {@code -transcode-responses-chat} against the probe's Chat
 * Completions fixture. The fixture answers {@code tool said: <output>} only when the last chat
 * message is {@code role: tool}, so the second answer proves the tool's output went upstream. The
 * proxy refuses none of the session's requests locally (issue 16; read from the journal).
 */
class CodexCliTest {
    static final NpmPackage CODEX = new NpmPackage("codex", "@openai/codex", "0.171.0");
    private static final String REPLY = "Hi Codex, from a chat-only upstream.";

    @TempDir
    Path dir;

    private record Run(int exit, String last, String stdout, String stderr) {
    }

    private Run codex(Path home, String name, String prompt) throws Exception {
        Path out = Files.createDirectories(dir.resolve(name));
        Path work = Files.createDirectories(dir.resolve("project"));
        Path codex = CODEX.prefix().resolve("node_modules/.bin/codex");
        ProcessBuilder pb = new ProcessBuilder(List.of(codex.toString(), "exec", "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox", "-C", work.toString(), "-o", out.resolve("last").toString(), prompt))
                .directory(work.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.resolve("stdout").toFile()).redirectError(out.resolve("stderr").toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("CODEX_HOME", home.resolve(".codex").toString());
        pb.environment().put("SHAPER_TEST_KEY", "dummy");
        pb.environment().remove("OPENAI_API_KEY");
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("codex exec did not finish in 180 s: " + Files.readString(out.resolve("stderr")));
        }
        Path last = out.resolve("last");
        return new Run(p.exitValue(), Files.exists(last) ? Files.readString(last, StandardCharsets.UTF_8).strip() : "",
                Files.readString(out.resolve("stdout"), StandardCharsets.UTF_8), Files.readString(out.resolve("stderr"), StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void codexCompletesAPromptAndAToolRoundTripThroughTheTranscoder() throws Exception {
        CODEX.install();
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withReply(REPLY));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/chat").toString(), "-transcode-responses-chat")) {
            Path home = Files.createDirectories(dir.resolve("home"));
            Files.createDirectories(home.resolve(".codex"));
            Files.writeString(home.resolve(".codex/config.toml"), String.join("\n",
                    "model = \"probe-chat-1\"",
                    "model_provider = \"shaper\"",
                    "",
                    "[model_providers.shaper]",
                    "name = \"shaper\"",
                    "base_url = \"" + shaper.uri("/v1") + "\"",
                    "env_key = \"SHAPER_TEST_KEY\"",
                    "wire_api = \"responses\"",
                    "request_max_retries = 1",
                    "stream_max_retries = 1",
                    ""));

            Run hi = codex(home, "hi", "say hi");
            assertEquals(0, hi.exit(), "stdout:\n" + hi.stdout() + "\nstderr:\n" + hi.stderr());
            assertEquals(REPLY, hi.last(), hi.stderr());

            Run tool = codex(home, "tool", "please [[bash:echo codex-transcoded-ok]]");
            assertEquals(0, tool.exit(), "stdout:\n" + tool.stdout() + "\nstderr:\n" + tool.stderr());
            assertTrue(tool.last().startsWith("tool said:"), tool.last() + "\n" + tool.stderr());
            assertTrue(tool.last().contains("codex-transcoded-ok"), "the command's output went back upstream: " + tool.last());

            assertTrue(probe.stats().snapshot().hits("/chat/v1/chat/completions") >= 3, probe.stats().snapshot().hits().toString());
            assertTrue(shaper.logLines("[local_request_conversion_error]").isEmpty(), shaper.stdout());
            assertTrue(shaper.logLines("[upstream_body_error]").isEmpty(), shaper.stdout());
            LocalRefusals.assertNone(shaper);
        } finally {
            probe.stop();
        }
    }
}
