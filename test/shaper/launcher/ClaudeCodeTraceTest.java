package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.testing.OtlpReceiver.attribute;
import static shaper.testing.OtlpReceiver.hex;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.opentelemetry.proto.trace.v1.Span;
import shaper.limit.LimiterSnapshot;
import shaper.testing.OtlpReceiver;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The telemetry done-when with the real client: a Claude Code prompt, started with {@code ./claude.sh},
 * queues behind a held slot, its first upstream attempt is answered 503 and retried, and it is
 * transcoded to a Chat Completions upstream. The trace the local collector receives shows the queue
 * wait, both attempts and the tokens, and the upstream call carries the answering attempt's context.
 */
class ClaudeCodeTraceTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String CHUNK = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-x-2026\",\"choices\":[{\"index\":0,";

    @TempDir
    Path dir;

    private static void chat(RecordedRequest req, ScriptedUpstream.Exchange ex) throws java.io.IOException {
        if (!req.bodyText().contains("\"stream\":true")) {
            ex.respond(200, "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"gpt-x-2026\",\"choices\":[{\"index\":0,\"message\":"
                    + "{\"role\":\"assistant\",\"content\":\"traced-ok\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2}}",
                    "Content-Type: application/json");
            return;
        }
        ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
        ex.chunk(CHUNK + "\"delta\":{\"role\":\"assistant\",\"content\":\"traced-ok\"},\"finish_reason\":null}]}\n\n");
        ex.chunk(CHUNK + "\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2}}\n\n");
        ex.chunk("data: [DONE]\n\n");
        ex.endChunks();
    }

    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void aQueuedRetriedTranscodedClaudeCodeRequestIsOneTrace() throws Exception {
        Path claude = RealClaudeCode.install();
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        int port = InProcessLaunch.freePort();
        try (OtlpReceiver collector = OtlpReceiver.start();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.bodyText().contains("hold-the-slot")) {
                     if (!release.await(120, TimeUnit.SECONDS)) {
                         throw new java.io.IOException("never released");
                     }
                     chat(req, ex);
                 } else if (calls.getAndIncrement() == 0) {
                     ex.respond(503, "{\"error\":{\"message\":\"overloaded\"}}", "Content-Type: application/json");
                 } else {
                     chat(req, ex);
                 }
             })) {
            List<RecordedRequest> seen;
            try (RunningShaper shaper = RunningShaper.start("-bind", "127.0.0.1:" + port, "-otel", "-otel-endpoint", collector.url(),
                    "-upstream", up.url(), "-transcode-messages-chat", "-limit-all", "-concurrency", "1", "-release-cooldown", "0",
                    "-retry", "2", "-retry-wait-min", "10ms", "-retry-wait-max", "20ms", "-queue-timeout", "5m")) {
                CompletableFuture<HttpResponse<String>> holder = HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages"))
                        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\":\"claude-x\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hold-the-slot\"}]}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                RunningShaper.await("holder upstream", BOUND, () -> up.inFlight() == 1);
                Map<String, String> env = LauncherScript.environment(Files.createDirectories(dir.resolve("home")),
                        Files.createDirectories(dir.resolve("tmp")));
                env.put("SHAPER_PORT", Integer.toString(port));
                env.put("SHAPER_CLAUDE", claude.toString());
                env.put("ANTHROPIC_API_KEY", "dummy");
                env.put("DISABLE_TELEMETRY", "1");
                env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
                Path out = Files.createDirectories(dir.resolve("out"));
                Process p = LauncherScript.start(List.of("-p", "say hi", "--output-format", "json"), env,
                        Files.createDirectories(dir.resolve("project")), out);
                RunningShaper.await("Claude Code's request queued", LauncherScript.START_BOUND, () -> !p.isAlive()
                        || shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum() >= 1);
                release.countDown();
                int exit = LauncherScript.await(p, LauncherScript.START_BOUND, out);
                String stdout = LauncherScript.read(out.resolve("stdout"));
                assertEquals(0, exit, "stdout:\n" + stdout + "\nstderr:\n" + LauncherScript.read(out.resolve("stderr")));
                assertTrue(stdout.contains("traced-ok"), stdout);
                assertEquals(200, holder.get(60, TimeUnit.SECONDS).statusCode());
                seen = up.requests();
            } // closing the proxy flushes the export
            collector.awaitSpans(6, BOUND);
            List<Span> spans = collector.spans();
            Span server = spans.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER
                            && "2".equals(attribute(s.getAttributesList(), "shaper.attempts")))
                    .findFirst().orElseThrow(() -> new AssertionError("no exchange with two attempts: " + spans.stream().map(Span::getName).toList()));
            String trace = hex(server.getTraceId());
            List<Span> tree = spans.stream().filter(s -> hex(s.getTraceId()).equals(trace)).toList();
            String serverId = hex(server.getSpanId());
            assertEquals("chat", attribute(server.getAttributesList(), "gen_ai.operation.name"));
            assertEquals("9", attribute(server.getAttributesList(), "gen_ai.usage.input_tokens"), "the upstream's prompt tokens");
            assertEquals("2", attribute(server.getAttributesList(), "gen_ai.usage.output_tokens"));
            assertTrue(tree.stream().anyMatch(s -> s.getName().equals("shaper.queue_wait") && hex(s.getParentSpanId()).equals(serverId)),
                    "its queue wait: " + tree.stream().map(Span::getName).toList());
            List<Span> attempts = tree.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT)
                    .sorted(Comparator.comparingLong(Span::getStartTimeUnixNano)).toList();
            assertEquals(2, attempts.size());
            assertEquals("503", attribute(attempts.get(0).getAttributesList(), "http.response.status_code"));
            assertEquals("server_error", attribute(attempts.get(0).getAttributesList(), "shaper.retry.reason"));
            assertEquals("200", attribute(attempts.get(1).getAttributesList(), "http.response.status_code"));
            assertTrue(tree.stream().anyMatch(s -> s.getName().equals("shaper.transcode response")
                    && hex(s.getParentSpanId()).equals(hex(attempts.get(1).getSpanId()))));
            // the flags are the SDK's (sampled, and the level-2 random bit on a trace it started)
            String expected = "00-" + trace + "-" + hex(attempts.get(1).getSpanId()) + "-";
            assertTrue(seen.stream().anyMatch(r -> r.header("traceparent") != null && r.header("traceparent").startsWith(expected)),
                    "the upstream call carries the answering attempt's context " + expected + "; sent: "
                            + seen.stream().map(r -> r.target() + " " + r.values("traceparent")).toList());
        }
    }
}
