package shaper.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.launcher.RealClaudeCode;
import shaper.observe.ExchangeRecord;
import shaper.observe.Header;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.NpmPackage;
import shaper.testing.RunningShaper;

/**
 * {@code -client-id session} read from the real clients' own traffic: the real Claude Code and the
 * real Codex, pinned as elsewhere in the tests, each run once through the proxy; every exchange of
 * the run has the client identity of a session header the client sent, not {@code anonymous}, and
 * the exchange line names it.
 */
class SessionIdentityTest {
    private static final NpmPackage CODEX = new NpmPackage("codex", "@openai/codex", "0.171.0");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void claudeCodeRequestsCarryTheirSession() throws Exception {
        Path claude = RealClaudeCode.install();
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0).withReply("hi from the probe"));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("").toString(), "-client-id", "session")) {
            Path home = Files.createDirectories(dir.resolve("home"));
            ProcessBuilder pb = new ProcessBuilder(List.of(claude.toString(), "-p", "say hi", "--output-format", "json"))
                    .directory(Files.createDirectories(dir.resolve("work")).toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(dir.resolve("stdout").toFile()).redirectError(dir.resolve("stderr").toFile());
            Map<String, String> env = pb.environment();
            env.put("HOME", home.toString());
            env.put("ANTHROPIC_BASE_URL", shaper.uri("").toString());
            env.put("ANTHROPIC_API_KEY", "dummy");
            env.put("DISABLE_TELEMETRY", "1");
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
            run(pb.start(), "claude -p");
            assertSessions(shaper, "x-claude-code-session-id");
        } finally {
            probe.stop();
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void codexRequestsCarryTheirSession() throws Exception {
        CODEX.install();
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0).withReply("hi from the probe"));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/chat").toString(), "-transcode-responses-chat",
                "-client-id", "session")) {
            Path home = Files.createDirectories(dir.resolve("home"));
            Files.createDirectories(home.resolve(".codex"));
            Files.writeString(home.resolve(".codex/config.toml"), String.join("\n",
                    "model = \"probe-chat-1\"", "model_provider = \"shaper\"", "", "[model_providers.shaper]", "name = \"shaper\"",
                    "base_url = \"" + shaper.uri("/v1") + "\"", "env_key = \"SHAPER_TEST_KEY\"", "wire_api = \"responses\"",
                    "request_max_retries = 1", "stream_max_retries = 1", ""));
            Path work = Files.createDirectories(dir.resolve("project"));
            ProcessBuilder pb = new ProcessBuilder(List.of(CODEX.prefix().resolve("node_modules/.bin/codex").toString(), "exec",
                    "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-C", work.toString(), "say hi"))
                    .directory(work.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(dir.resolve("stdout").toFile()).redirectError(dir.resolve("stderr").toFile());
            pb.environment().put("HOME", home.toString());
            pb.environment().put("CODEX_HOME", home.resolve(".codex").toString());
            pb.environment().put("SHAPER_TEST_KEY", "dummy");
            pb.environment().remove("OPENAI_API_KEY");
            run(pb.start(), "codex exec");
            assertSessions(shaper, "session-id", "session_id");
        } finally {
            probe.stop();
        }
    }

    private void run(Process p, String what) throws Exception {
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(what + " did not finish in 180 s: " + Files.readString(dir.resolve("stderr")));
        }
        assertEquals(0, p.exitValue(), what + "\nstdout:\n" + Files.readString(dir.resolve("stdout"))
                + "\nstderr:\n" + Files.readString(dir.resolve("stderr")));
    }

    /** Every model call of the run is the client named by one of {@code headers}, and the log line says so. */
    private static void assertSessions(RunningShaper shaper, String... headers) {
        List<ExchangeRecord> calls = shaper.server().journal("default").recent().stream()
                .filter(r -> r.method().equals("POST")).toList();
        assertFalse(calls.isEmpty(), shaper.stdout());
        for (ExchangeRecord r : calls) {
            String session = r.requestHeaders().stream()
                    .filter(h -> List.of(headers).contains(h.name().toLowerCase(Locale.ROOT))).map(Header::value).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + List.of(headers) + " among " + r.requestHeaders().stream()
                            .map(Header::name).toList()));
            assertEquals(session, r.client(), r.path());
            assertTrue(shaper.stdout().contains(" client=" + session + " "), shaper.stdout());
        }
    }
}
