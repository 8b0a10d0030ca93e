package shaper.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import shaper.limit.LimiterSnapshot;
import shaper.observe.InFlight;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Over real sockets, in every limiter kind: a limit of 1 held by a gated first request, then four
 * background and four interactive requests queued in that order; at weights 4:1 the interactive ones
 * go first but background is not starved, and each class keeps its arrival order.
 *
 * <p>The token budget's "limit of 1": {@code -itpm 1000} and requests of about 750 input tokens
 * each; the upstream reports 1 token used, so each exchange gives its estimate back when it ends, and
 * only one fits the bucket at a time (a refill of the missing 500 takes 30 s, far beyond the test).
 */
class ClassOrderingTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(20);
    /** An answer that reports its usage: an exchange's unused estimate goes back to the token budget when it ends. */
    private static final String USED = "{\"type\":\"message\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}";
    private static final String BIG = "{\"model\":\"m\",\"pad\":\"" + "x".repeat(3000) + "\"}";

    static Stream<Arguments> limiterKinds() {
        return Stream.of(
                Arguments.of("route", "/v1/messages", List.of("-limit", "POST /messages:1")),
                Arguments.of("group", "/v1/chat/completions", List.of("-limit", "POST /messages:1@llm", "-limit", "POST /chat/completions@llm")),
                Arguments.of("default pool", "/v1/anything", List.of("-limit-all", "-concurrency", "1")),
                Arguments.of("global", "/v1/passthrough", List.of("-limit", "POST /messages:5", "-global-concurrency", "1")),
                Arguments.of("large-request gate", "/v1/passthrough", List.of("-limit", "POST /messages:5", "-big-ctx-tokens", "10",
                        "-big-ctx-concurrency", "1")),
                Arguments.of("token budget", "/v1/passthrough", List.of("-limit", "POST /messages:5", "-itpm", "1000")));
    }

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper shaper, String path, String cls, String id) {
        HttpRequest.Builder b = HttpRequest.newBuilder(shaper.uri(path + "?id=" + id)).timeout(BOUND)
                .POST(HttpRequest.BodyPublishers.ofString(BIG));
        if (cls != null) {
            b.header("X-Shaper-Priority", cls);
        }
        return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waiters queued in the slot limiters, plus requests queued for tokens (their ticket is in the budget's queue). */
    private static int waiters(RunningShaper shaper) {
        long forTokens = shaper.server().journal("default").inFlight().stream()
                .filter(i -> i.state() == InFlight.State.QUEUED && i.waitingFor().startsWith("waiting for tokens")).count();
        return shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum() + (int) forTokens;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limiterKinds")
    void interactiveGoesFirstWithoutStarvingBackground(String kind, String path, List<String> flags) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().contains("id=first") && !gate.await(20, TimeUnit.SECONDS)) {
                     throw new java.io.IOException("gate never opened");
                 }
                 ex.respond(200, USED);
             })) {
            List<String> argv = new ArrayList<>(List.of("-upstream", up.url(), "-release-cooldown", "0",
                    "-priority-class", "interactive=4", "-priority-class", "background=1"));
            argv.addAll(flags);
            try (RunningShaper shaper = RunningShaper.start(argv.toArray(String[]::new))) {
                List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
                all.add(send(shaper, path, "interactive", "first"));
                RunningShaper.await("the first request at the upstream", BOUND, () -> up.inFlight() == 1);
                for (int i = 0; i < 8; i++) {
                    String cls = i < 4 ? "background" : "interactive";
                    all.add(send(shaper, path, cls, cls + i % 4));
                    int queued = i + 1;
                    RunningShaper.await(queued + " queued (" + kind + ")", BOUND, () -> waiters(shaper) == queued);
                }
                gate.countDown();
                for (var f : all) {
                    assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
                }
                List<String> order = up.requests().stream().map(r -> r.target().replaceAll(".*id=", "")).toList();
                assertEquals(List.of("first", "interactive0", "background0", "interactive1", "interactive2", "interactive3",
                        "background1", "background2", "background3"), order, kind);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limiterKinds")
    void aFullQueueRefusesTheNewestBackgroundWaiterFirst(String kind, String path, List<String> flags) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().contains("id=first") && !gate.await(20, TimeUnit.SECONDS)) {
                     throw new java.io.IOException("gate never opened");
                 }
                 ex.respond(200, USED);
             })) {
            List<String> argv = new ArrayList<>(List.of("-upstream", up.url(), "-release-cooldown", "0", "-queue-depth", "2",
                    "-priority-class", "interactive=4", "-priority-class", "background=1"));
            argv.addAll(flags);
            try (RunningShaper shaper = RunningShaper.start(argv.toArray(String[]::new))) {
                var first = send(shaper, path, "interactive", "first");
                RunningShaper.await("the first request at the upstream", BOUND, () -> up.inFlight() == 1);
                var b0 = send(shaper, path, "background", "b0");
                RunningShaper.await("b0 queued", BOUND, () -> waiters(shaper) == 1);
                var b1 = send(shaper, path, "background", "b1");
                RunningShaper.await("b1 queued", BOUND, () -> waiters(shaper) == 2);
                assertEquals(429, send(shaper, path, "background", "b2").get(20, TimeUnit.SECONDS).statusCode(),
                        "a background arrival at a full queue is itself refused");
                var i0 = send(shaper, path, "interactive", "i0");
                HttpResponse<String> displaced = b1.get(20, TimeUnit.SECONDS);
                assertEquals(429, displaced.statusCode(), "the newest background waiter gives its place to the interactive arrival");
                assertTrue(displaced.body().contains("queue_full"), displaced.body());
                gate.countDown();
                for (var f : List.of(first, b0, i0)) {
                    assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
                }
                List<String> order = up.requests().stream().map(r -> r.target().replaceAll(".*id=", "")).toList();
                assertEquals(List.of("first", "i0", "b0"), order, kind);
            }
        }
    }
}
