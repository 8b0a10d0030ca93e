package shaper.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The README's worked example for Claude Code's background calls, over real sockets: Haiku
 * requests and a CI runner's requests are background by rule, the header wins over the rules, an
 * undeclared class in the header falls through to them, and the class a rule gives decides the
 * queue order.
 */
class PriorityRulesTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String[] EXAMPLE = {"-limit-all", "-concurrency", "1", "-release-cooldown", "0",
            "-priority-class", "interactive=4", "-priority-class", "background=1",
            "-priority-rule", "model~*haiku*=background", "-priority-rule", "header:User-Agent~*ci-runner*=background"};

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper s, String id, String model, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(s.uri("/v1/" + id + "/messages")).timeout(BOUND)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"max_tokens\":5,\"messages\":[]}"));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String classOf(RunningShaper s, String id) {
        String path = "path=/v1/" + id + "/messages ";
        RunningShaper.await("the log line of " + id, BOUND, () -> !s.logLines(path).isEmpty());
        String line = s.logLines(path).getFirst();
        int at = line.indexOf(" class=");
        return at < 0 ? "" : line.substring(at + 7).split(" ")[0];
    }

    @Test
    void rulesHeadersAndTheDefaultPlaceEachRequest() throws Exception {
        String[] argv = new String[EXAMPLE.length + 2];
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}")) {
            argv[0] = "-upstream";
            argv[1] = up.url();
            System.arraycopy(EXAMPLE, 0, argv, 2, EXAMPLE.length);
            try (RunningShaper s = RunningShaper.start(argv)) {
                assertEquals(200, send(s, "haiku", "claude-haiku-4-5").get(20, TimeUnit.SECONDS).statusCode());
                assertEquals(200, send(s, "sonnet", "claude-sonnet-4-5").get(20, TimeUnit.SECONDS).statusCode());
                assertEquals(200, send(s, "ci", "claude-sonnet-4-5", "User-Agent", "ci-runner/2.1").get(20, TimeUnit.SECONDS).statusCode());
                assertEquals(200, send(s, "header", "claude-haiku-4-5", "X-Shaper-Priority", "interactive").get(20, TimeUnit.SECONDS)
                        .statusCode());
                assertEquals(200, send(s, "unknown", "claude-haiku-4-5", "X-Shaper-Priority", "urgent").get(20, TimeUnit.SECONDS)
                        .statusCode());
                assertEquals("background", classOf(s, "haiku"));
                assertEquals("interactive", classOf(s, "sonnet"), "no rule matches: the first class declared");
                assertEquals("background", classOf(s, "ci"));
                assertEquals("interactive", classOf(s, "header"), "the header wins over the rules");
                assertEquals("background", classOf(s, "unknown"), "an undeclared class falls through to the rules");
                assertEquals(1, s.server().assembly("default").priority().unknownHeaderClasses());
            }
        }
    }

    @Test
    void aRulesClassDecidesTheQueueOrder() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
            if (req.target().startsWith("/v1/first/") && !gate.await(20, TimeUnit.SECONDS)) {
                throw new java.io.IOException("gate never opened");
            }
            ex.respond(200, "{}");
        })) {
            String[] argv = new String[EXAMPLE.length + 2];
            argv[0] = "-upstream";
            argv[1] = up.url();
            System.arraycopy(EXAMPLE, 0, argv, 2, EXAMPLE.length);
            try (RunningShaper s = RunningShaper.start(argv)) {
                var first = send(s, "first", "claude-sonnet-4-5");
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                var haiku = send(s, "title", "claude-haiku-4-5");
                RunningShaper.await("the Haiku call queued", BOUND, () -> waiters(s) == 1);
                var turn = send(s, "turn", "claude-sonnet-4-5");
                RunningShaper.await("the person's turn queued", BOUND, () -> waiters(s) == 2);
                gate.countDown();
                for (var f : List.of(first, haiku, turn)) {
                    assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
                }
                List<String> order = up.requests().stream().map(r -> r.target().split("/")[2]).toList();
                assertEquals(List.of("first", "turn", "title"), order, "the person's turn overtakes the earlier background call");
                assertTrue(s.stderr().isEmpty(), s.stderr());
            }
        }
    }

    private static int waiters(RunningShaper s) {
        return s.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum();
    }
}
