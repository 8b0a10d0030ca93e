package shaper.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.launcher.RealClaudeCode;
import shaper.observe.ExchangeRecord;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The newest Claude Code ({@link RealClaudeCode}), pointed at the routed mount, keeps working when
 * its first target (an Anthropic-dialect fake with one slot) answers {@code 529}, is saturated
 * ({@code -fallback-after}) or is down: the second target, a Chat fake behind that provider's
 * Messages-to-Chat transcoding, answers; and the session's later requests stick to it.
 */
class ClaudeCodeRoutedTest {
    private static final String REPLY = "Hi from the overflow gateway, through the routed mount.";

    @TempDir
    Path dir;

    /** Runs {@code claude -p "say hi" --output-format json} against {@code baseUrl}, with {@code more} arguments; returns its JSON result. */
    private JsonNode claude(String baseUrl, String... more) throws Exception {
        Path claude = RealClaudeCode.install();
        Path home = Files.createDirectories(dir.resolve("home"));
        Path work = Files.createDirectories(dir.resolve("project"));
        List<String> command = new ArrayList<>(List.of(claude.toString(), "-p", "say hi", "--output-format", "json"));
        command.addAll(List.of(more));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("ANTHROPIC_BASE_URL", baseUrl);
        pb.environment().put("ANTHROPIC_API_KEY", "sk-ant-client-placeholder");
        pb.environment().put("DISABLE_TELEMETRY", "1");
        pb.environment().put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        Process p = pb.start();
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                throw new AssertionError("claude -p did not finish in 180 s: " + Files.readString(dir.resolve("err")));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly); // its own children, by handle
            p.destroyForcibly();
        }
        String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "stdout:\n" + out + "\nstderr:\n" + Files.readString(dir.resolve("err")));
        return new ObjectMapper().readTree(out);
    }

    private static RunningShaper routed(String anthropicFake, ProbeServer chat, String... aFlags) {
        List<String> a = new ArrayList<>(List.of("-limit-all", "-concurrency", "1", "-release-cooldown", "0"));
        a.addAll(List.of(aFlags));
        return Routed.start(List.of("-model-route", "*=a,b", "-fallback-after", "500ms"), anthropicFake, a,
                chat.uri("/chat").toString(), List.of("-transcode-messages-chat"));
    }

    private static void assertServedByTheGateway(JsonNode result, RunningShaper shaper, String why) {
        assertEquals(REPLY, result.path("result").asText(), result.toString());
        assertFalse(result.path("is_error").asBoolean(true), result.toString());
        List<ExchangeRecord> atB = shaper.server().journal("b").recent();
        assertTrue(atB.stream().anyMatch(r -> r.routing().moves().stream().anyMatch(m -> m.why().equals(why))),
                "a request moved from a for " + why + ": " + atB.stream().map(ExchangeRecord::routing).toList());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void anOverloadedFirstTargetSpillsTheSessionToTheGatewayWhereItSticks() throws Exception {
        ProbeServer chat = ProbeServer.start(ProbeConfig.defaults(0).withReply(REPLY));
        AtomicInteger status = new AtomicInteger(529);
        try (ScriptedUpstream first = ScriptedUpstream.start((req, ex) -> ex.respond(status.get(),
                     "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}", "Content-Type: application/json"));
             RunningShaper shaper = routed(first.url(), chat)) {
            String session = UUID.randomUUID().toString();
            assertServedByTheGateway(claude(shaper.uri("/r").toString(), "--session-id", session), shaper, "529");
            ExchangeRecord moved = shaper.server().journal("b").recent().getFirst();
            assertTrue(moved.requestHeaders().stream().anyMatch(h -> h.name().equalsIgnoreCase("x-claude-code-session-id")
                    && h.value().equals(session)), "Claude Code names its session: " + moved.requestHeaders());
            int firstSaw = first.requests().size();

            status.set(200); // the first target is well again: the session stays where its cache is warm
            JsonNode resumed = claude(shaper.uri("/r").toString(), "--resume", session);
            assertEquals(REPLY, resumed.path("result").asText(), resumed.toString());
            assertEquals(firstSaw, first.requests().size(), "the resumed session went to b, not back to a");
            ExchangeRecord stuck = shaper.server().journal("b").recent().getFirst();
            assertEquals(List.of(), stuck.routing().moves(), "straight to b: " + stuck.routing());
            assertEquals("b", stuck.routing().target());
        } finally {
            chat.stop();
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aSaturatedFirstTargetHandsTheWaitToTheGateway() throws Exception {
        ProbeServer chat = ProbeServer.start(ProbeConfig.defaults(0).withReply(REPLY));
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream busy = ScriptedUpstream.start((req, ex) -> {
                 if (!gate.await(5, TimeUnit.MINUTES)) {
                     throw new IOException("gate never opened");
                 }
                 ex.respond(200, "{}");
             });
             RunningShaper shaper = routed(busy.url(), chat)) {
            CompletableFuture<?> holder = Routed.post(shaper, "/a/v1/messages", Routed.messages("claude-hold"));
            RunningShaper.await("a's one slot taken", Routed.BOUND, () -> busy.inFlight() == 1);
            assertServedByTheGateway(claude(shaper.uri("/r").toString()), shaper, "queue_wait");
            assertEquals(1, busy.requests().size(), "only the holder reached a");
            gate.countDown();
            holder.get(15, TimeUnit.SECONDS);
            Routed.awaitNothingHeld(shaper);
        } finally {
            gate.countDown();
            chat.stop();
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aFirstTargetThatIsDownIsPassedOver() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            dead = s.getLocalPort();
        }
        ProbeServer chat = ProbeServer.start(ProbeConfig.defaults(0).withReply(REPLY));
        try (RunningShaper shaper = routed("http://127.0.0.1:" + dead, chat, "-retry", "0")) {
            assertServedByTheGateway(claude(shaper.uri("/r").toString()), shaper, "transport");
        } finally {
            chat.stop();
        }
    }
}
