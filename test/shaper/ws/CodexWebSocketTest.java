package shaper.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.observe.EndReason;
import shaper.observe.ExchangeRecord;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.NpmPackage;
import shaper.testing.ResponsesSocketUpstream;
import shaper.testing.RunningShaper;

/**
 * The real Codex CLI (pinned to the newest on npm) with its built-in provider, an API-key login and
 * {@code openai_base_url} at the proxy speaks the Responses WebSocket transport, and the proxy shapes
 * it: three concurrent {@code codex exec} under {@code -concurrency 1} never have more than one
 * response in flight at the fake, and each turn is its own record; a queue timeout reaches Codex as
 * the {@code error} event, and Codex retries on a new socket and finishes; a transcoded route answers
 * the upgrade {@code 426} once, and Codex is on HTTP at once (about a second, not 6-7 s of retries).
 */
class CodexWebSocketTest {
    static final NpmPackage CODEX = new NpmPackage("codex", "@openai/codex", "0.171.0");
    private static final String REPLY = "Hi Codex, from a WebSocket upstream.";
    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private record Run(int exit, String last, String stderr) {
    }

    /** Starts {@code codex exec "say hi"} in a home of its own, pointed at {@code shaper}. */
    private Process start(RunningShaper shaper, String name) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name).resolve("home"));
        Path codexHome = Files.createDirectories(home.resolve(".codex"));
        Files.writeString(codexHome.resolve("config.toml"), String.join("\n",
                "model = \"fake-1\"",
                "openai_base_url = \"" + shaper.uri("/v1") + "\"",
                ""));
        Files.writeString(codexHome.resolve("auth.json"), "{\"auth_mode\":\"apikey\",\"OPENAI_API_KEY\":\"sk-test-dummy\"}");
        Path work = Files.createDirectories(dir.resolve(name).resolve("project"));
        Path out = Files.createDirectories(dir.resolve(name).resolve("out"));
        ProcessBuilder pb = new ProcessBuilder(List.of(CODEX.prefix().resolve("node_modules/.bin/codex").toString(), "exec",
                "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-C", work.toString(),
                "-o", out.resolve("last").toString(), "say hi"))
                .directory(work.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.resolve("stdout").toFile()).redirectError(out.resolve("stderr").toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("CODEX_HOME", codexHome.toString());
        pb.environment().remove("OPENAI_API_KEY");
        pb.environment().remove("OPENAI_BASE_URL");
        return pb.start();
    }

    private Run finish(Process p, String name) throws Exception {
        Path out = dir.resolve(name).resolve("out");
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                throw new AssertionError("codex exec did not finish in 180 s: " + Files.readString(out.resolve("stderr")));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        Path last = out.resolve("last");
        return new Run(p.exitValue(), Files.exists(last) ? Files.readString(last, StandardCharsets.UTF_8).strip() : "",
                Files.readString(out.resolve("stderr"), StandardCharsets.UTF_8));
    }

    private static List<ExchangeRecord> records(RunningShaper shaper) {
        return shaper.server().journal("default").recent();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void threeConcurrentCodexRunsUnderConcurrencyOneKeepOneResponseInFlight() throws Exception {
        CODEX.install();
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start(REPLY);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1")) {
            List<Process> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                runs.add(start(shaper, "run" + i));
            }
            for (int i = 0; i < 3; i++) {
                Run run = finish(runs.get(i), "run" + i);
                assertEquals(0, run.exit(), run.stderr());
                assertEquals(REPLY, run.last(), run.stderr());
            }
            assertEquals(1, up.maxInFlight(), "never more than one response in flight at the upstream");
            assertEquals(0, up.posts(), "Codex stayed on the WebSocket");
            List<ExchangeRecord> turns = records(shaper).stream().filter(r -> r.transport().equals("ws")).toList();
            assertTrue(turns.size() >= 3, "each turn is its own record: " + turns);
            assertTrue(turns.stream().allMatch(r -> r.status() == 200 && r.reason() == EndReason.COMPLETED), turns.toString());
            assertTrue(turns.stream().allMatch(r -> r.usage().output() == 7), "usage from response.completed: " + turns);
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aQueueTimeoutReachesCodexAsTheErrorEventAndCodexRecovers() throws Exception {
        CODEX.install();
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start(REPLY);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-queue-timeout", "1s")) {
            up.holdTurns();
            Process first = start(shaper, "first");
            RunningShaper.await("the first turn at the fake", BOUND, () -> up.inFlight() == 1);
            Process second = start(shaper, "second");
            RunningShaper.await("the second turn timed out in the queue", BOUND,
                    () -> records(shaper).stream().anyMatch(r -> r.transport().equals("ws") && r.reason() == EndReason.QUEUE_TIMEOUT));
            up.release(1000);
            Run a = finish(first, "first");
            Run b = finish(second, "second");
            assertEquals(0, a.exit(), a.stderr());
            assertEquals(REPLY, a.last(), a.stderr());
            assertEquals(0, b.exit(), b.stderr());
            assertEquals(REPLY, b.last(), "Codex retried on a new socket after the error event: " + b.stderr());
            assertEquals(0, up.posts(), "the retry was on a new socket, not an HTTP fallback");
            assertEquals(1, up.maxInFlight());
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aTranscodedRouteSendsCodexToHttpWithinOneSecond() throws Exception {
        CODEX.install();
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0).withReply(REPLY));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/chat").toString(), "-transcode-responses-chat")) {
            Run run = finish(start(shaper, "transcoded"), "transcoded");
            assertEquals(0, run.exit(), run.stderr());
            assertEquals(REPLY, run.last(), run.stderr());
            List<ExchangeRecord> all = records(shaper);
            ExchangeRecord refused = all.stream().filter(r -> r.status() == 426).findFirst()
                    .orElseThrow(() -> new AssertionError("no 426: " + all));
            ExchangeRecord post = all.stream().filter(r -> r.method().equals("POST") && r.path().equals("/v1/responses")).findFirst()
                    .orElseThrow(() -> new AssertionError("no HTTP fallback: " + all));
            // the proof is structural: one upgrade, no retries; the gap is Codex's own start-up of its HTTP
            // request (0.6-1 s on an idle machine), bounded at 3 s so that a loaded machine does not flake,
            // still well under the 6-7 s of retries a refused upgrade used to cost
            assertEquals(1, all.stream().filter(r -> r.status() == 426).count(), "one upgrade attempt, no retries: " + all);
            Duration gap = Duration.between(refused.timings().arrivedAt(), post.timings().arrivedAt());
            System.out.println("Codex's fallback after the 426: " + gap.toMillis() + " ms");
            assertTrue(gap.compareTo(Duration.ofSeconds(3)) < 0, "Codex fell back to HTTP at once after the 426: " + gap);
        } finally {
            probe.stop();
        }
    }
}
