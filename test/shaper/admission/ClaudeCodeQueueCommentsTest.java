package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.launcher.RealClaudeCode;
import shaper.observe.EndReason;
import shaper.observe.ExchangeRecord;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.RunningShaper;

/**
 * The real Claude Code streams with {@code Accept: application/json}; run with a short
 * {@code API_TIMEOUT_MS} (10 s) behind a slot held for 25 s: with {@code -queue-comments 3s} its one
 * request is committed at once, keeps receiving comments and completes; without, it times out
 * while queued (its exchange ends with the client gone) and has to ask again at the back of the queue.
 */
class ClaudeCodeQueueCommentsTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private List<ExchangeRecord> claudeCalls(RunningShaper shaper) {
        return shaper.server().journal("default").recent().stream()
                .filter(r -> r.requestHeaders().stream().anyMatch(h -> h.name().equalsIgnoreCase("x-claude-code-session-id"))).toList();
    }

    private long timedOutWhileQueued(RunningShaper shaper) {
        return claudeCalls(shaper).stream().filter(r -> r.reason() == EndReason.CLIENT_LEFT).count();
    }

    /** Holds the one slot for 25 s, then runs {@code claude -p}; returns its exit code once it finished. */
    private int run(RunningShaper shaper, Path claude, String name) throws Exception {
        CompletableFuture<HttpResponse<String>> holder = CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/slow/v1/messages?delay=25s"))
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        RunningShaper.await("the slot held", Duration.ofSeconds(20), () -> shaper.server().limiters("default").stream()
                .anyMatch(l -> l.inUse() == 1));
        Path out = Files.createDirectories(dir.resolve(name));
        ProcessBuilder pb = new ProcessBuilder(List.of(claude.toString(), "-p", "say hi", "--output-format", "json"))
                .directory(Files.createDirectories(out.resolve("work")).toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.resolve("stdout").toFile()).redirectError(out.resolve("stderr").toFile());
        Map<String, String> env = pb.environment();
        env.put("HOME", Files.createDirectories(out.resolve("home")).toString());
        env.put("ANTHROPIC_BASE_URL", shaper.uri("").toString());
        env.put("ANTHROPIC_API_KEY", "dummy");
        env.put("API_TIMEOUT_MS", "10000");
        env.put("DISABLE_TELEMETRY", "1");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        Process p = pb.start();
        try {
            if (!p.waitFor(240, TimeUnit.SECONDS)) {
                throw new AssertionError("claude -p did not finish in 240 s: " + Files.readString(out.resolve("stderr")));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertEquals(200, holder.get(60, TimeUnit.SECONDS).statusCode());
        return p.exitValue();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void queueCommentsKeepAQueuedClaudeCodeRequestAlive() throws Exception {
        Path claude = RealClaudeCode.install();
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0).withReply("hi after the queue"));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("").toString(), "-limit-all", "-concurrency", "1",
                "-release-cooldown", "0", "-queue-timeout", "2m", "-queue-comments", "3s")) {
            assertEquals(0, run(shaper, claude, "comments"), shaper.stdout());
            List<ExchangeRecord> calls = claudeCalls(shaper);
            assertTrue(calls.stream().anyMatch(r -> r.status() == 200 && r.timings().queueWait().toSeconds() >= 10), calls.toString());
            assertEquals(0, timedOutWhileQueued(shaper), "no request of Claude Code gave up in the queue: " + shaper.stdout());
        } finally {
            probe.stop();
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void withoutQueueCommentsAQueuedClaudeCodeRequestTimesOut() throws Exception {
        Path claude = RealClaudeCode.install();
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0).withReply("hi after the queue"));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("").toString(), "-limit-all", "-concurrency", "1",
                "-release-cooldown", "0", "-queue-timeout", "2m")) {
            run(shaper, claude, "silent");
            assertTrue(timedOutWhileQueued(shaper) >= 1, "Claude Code gave up on a silent queue and asked again: " + shaper.stdout());
        } finally {
            probe.stop();
        }
    }
}
