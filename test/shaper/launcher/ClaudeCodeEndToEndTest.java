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
import shaper.testing.RunningShaper;

/**
 * The "done when": the real Claude Code CLI, run by {@code ./claude.sh -p ... --output-format json},
 * gets the fixture upstream's answer through a shaper the launcher started itself.
 */
class ClaudeCodeEndToEndTest {
    private static final String REPLY = "Hi from the probe, through the shaper.";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void claudeCodeAnswersFromTheProbeThroughADetachedShaper() throws Exception {
        Path claude = RealClaudeCode.install();
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withReply(REPLY));
        int port = InProcessLaunch.freePort();
        try {
            Path home = Files.createDirectories(dir.resolve("home"));
            Path tmp = Files.createDirectories(dir.resolve("tmp"));
            Path work = Files.createDirectories(dir.resolve("project"));
            Map<String, String> env = LauncherScript.environment(home, tmp);
            env.put("SHAPER_UPSTREAM", probe.uri("").toString());
            env.put("SHAPER_PORT", Integer.toString(port));
            env.put("SHAPER_CLAUDE", claude.toString());
            // Until the proxy has -retry/-big-ctx-*: start it with the flags it accepts today.
            env.put("ANTHROPIC_API_KEY", "dummy");
            env.put("DISABLE_TELEMETRY", "1");
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");

            Process p = LauncherScript.start(List.of("-p", "say hi", "--output-format", "json"), env, work, dir);
            int exit = LauncherScript.await(p, LauncherScript.START_BOUND.plusSeconds(120), dir);
            String stdout = LauncherScript.read(dir.resolve("stdout"));
            String stderr = LauncherScript.read(dir.resolve("stderr"));
            assertEquals(0, exit, "stdout:\n" + stdout + "\nstderr:\n" + stderr);

            JsonNode result = new ObjectMapper().readTree(stdout);
            assertEquals(REPLY, result.path("result").asText(), stdout);
            assertFalse(result.path("is_error").asBoolean(true), stdout);
            assertTrue(stderr.contains("starting a shaper on http://127.0.0.1:" + port), stderr);
            assertTrue(probe.stats().snapshot().hits("/v1/messages") >= 1, "the probe saw the request: " + probe.stats().snapshot().hits());

            long pid = DetachedShapers.pid(port).orElseThrow(() -> new AssertionError("the detached shaper is gone after the launch"));
            assertTrue(DetachedShapers.commandLine(pid).contains("-bind 127.0.0.1:" + port), DetachedShapers.commandLine(pid));
            Path log = tmp.resolve("shaper-" + port + ".log");
            RunningShaper.await("the exchange in the shaper's log", Duration.ofSeconds(10),
                    () -> LauncherScript.read(log).contains("method=POST path=/v1/messages status=200"));
            try (var s = Files.list(tmp)) {
                assertEquals(List.of(), s.filter(f -> f.getFileName().toString().startsWith(TempSettings.DIRECTORY_PREFIX)).toList(),
                        "settings copy deleted");
            }
        } finally {
            DetachedShapers.stop(port);
            probe.stop();
        }
    }
}
