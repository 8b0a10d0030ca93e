package shaper.clients;

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
 * Over real sockets, in every limiter kind: a limit of 1 held by a gated request of a swarm client,
 * eight more of the swarm queued, then one request of an interactive client. With fair share the
 * interactive request is served second (right after the swarm's head), not ninth, and both clients
 * keep their own arrival order; a full queue refuses the newest waiter of the client with the most
 * queued, not the newest arrival.
 *
 * <p>The token budget's "limit of 1" is the one of {@code ClassOrderingTest}: {@code -itpm 1000},
 * requests of about 750 input tokens, an upstream that reports 1 token used.
 */
class FairShareTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String USED = "{\"type\":\"message\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}";
    private static final String BIG = "{\"model\":\"m\",\"pad\":\"" + "x".repeat(3000) + "\"}";

    static Stream<Arguments> limiterKinds() {
        return Stream.of(
                Arguments.of("route", "/v1/messages", List.of("-limit", "POST /messages:1")),
                Arguments.of("default pool", "/v1/anything", List.of("-limit-all", "-concurrency", "1")),
                Arguments.of("global", "/v1/passthrough", List.of("-limit", "POST /messages:5", "-global-concurrency", "1")),
                Arguments.of("large-request gate", "/v1/passthrough", List.of("-limit", "POST /messages:5", "-big-ctx-tokens", "10",
                        "-big-ctx-concurrency", "1")),
                Arguments.of("token budget", "/v1/passthrough", List.of("-limit", "POST /messages:5", "-itpm", "1000")));
    }

    static CompletableFuture<HttpResponse<String>> send(RunningShaper shaper, String path, String team, String id) {
        HttpRequest request = HttpRequest.newBuilder(shaper.uri(path + "?id=" + id)).timeout(BOUND)
                .header("X-Team", team).POST(HttpRequest.BodyPublishers.ofString(BIG)).build();
        return CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Waiters queued in the slot limiters, plus requests queued for tokens. */
    static int waiters(RunningShaper shaper) {
        long forTokens = shaper.server().journal("default").inFlight().stream()
                .filter(i -> i.state() == InFlight.State.QUEUED && i.waitingFor().startsWith("waiting for tokens")).count();
        return shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum() + (int) forTokens;
    }

    static ScriptedUpstream gatedUpstream(CountDownLatch gate) throws Exception {
        return ScriptedUpstream.start((req, ex) -> {
            if (req.target().contains("id=first") && !gate.await(20, TimeUnit.SECONDS)) {
                throw new java.io.IOException("gate never opened");
            }
            ex.respond(200, USED);
        });
    }

    static String[] argv(ScriptedUpstream up, List<String> flags, String... more) {
        List<String> argv = new ArrayList<>(List.of("-upstream", up.url(), "-release-cooldown", "0", "-client-id", "header:x-team"));
        argv.addAll(List.of(more));
        argv.addAll(flags);
        return argv.toArray(String[]::new);
    }

    static List<String> order(ScriptedUpstream up) {
        return up.requests().stream().map(r -> r.target().replaceAll(".*id=", "")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limiterKinds")
    void theSwarmCannotStarveTheInteractiveClient(String kind, String path, List<String> flags) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gatedUpstream(gate); RunningShaper shaper = RunningShaper.start(argv(up, flags))) {
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            all.add(send(shaper, path, "swarm", "first"));
            RunningShaper.await("the first request at the upstream", BOUND, () -> up.inFlight() == 1);
            for (int i = 0; i < 8; i++) {
                all.add(send(shaper, path, "swarm", "s" + i));
                int queued = i + 1;
                RunningShaper.await(queued + " queued (" + kind + ")", BOUND, () -> waiters(shaper) == queued);
            }
            all.add(send(shaper, path, "alice", "alice"));
            RunningShaper.await("alice queued (" + kind + ")", BOUND, () -> waiters(shaper) == 9);
            gate.countDown();
            for (var f : all) {
                assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(List.of("first", "s0", "alice", "s1", "s2", "s3", "s4", "s5", "s6", "s7"), order(up), kind);
            assertTrue(shaper.server().journal("default").recent().stream().anyMatch(r -> r.client().equals("alice")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limiterKinds")
    void theDepthBoundRefusesTheNewestWaiterOfTheHeaviestClient(String kind, String path, List<String> flags) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gatedUpstream(gate); RunningShaper shaper = RunningShaper.start(argv(up, flags, "-queue-depth", "4"))) {
            var first = send(shaper, path, "swarm", "first");
            RunningShaper.await("the first request at the upstream", BOUND, () -> up.inFlight() == 1);
            List<CompletableFuture<HttpResponse<String>>> kept = new ArrayList<>(List.of(first));
            CompletableFuture<HttpResponse<String>> s3 = null;
            String[][] arrivals = {{"swarm", "s1"}, {"swarm", "s2"}, {"swarm", "s3"}, {"alice", "a1"}};
            for (int i = 0; i < arrivals.length; i++) {
                var f = send(shaper, path, arrivals[i][0], arrivals[i][1]);
                if (arrivals[i][1].equals("s3")) {
                    s3 = f;
                } else {
                    kept.add(f);
                }
                int queued = i + 1;
                RunningShaper.await(queued + " queued (" + kind + ")", BOUND, () -> waiters(shaper) == queued);
            }
            kept.add(send(shaper, path, "alice", "a2"));
            HttpResponse<String> displaced = s3.get(20, TimeUnit.SECONDS);
            assertEquals(429, displaced.statusCode(), "the swarm's newest waiter gives its place to alice's arrival (" + kind + ")");
            assertTrue(displaced.body().contains("queue_full") || displaced.body().contains("rate_limit"), displaced.body());
            RunningShaper.await("a2 queued in s3's place (" + kind + ")", BOUND, () -> waiters(shaper) == 4);
            assertEquals(429, send(shaper, path, "swarm", "s4").get(20, TimeUnit.SECONDS).statusCode(),
                    "the heaviest client's own arrival is refused (" + kind + ")");
            gate.countDown();
            for (var f : kept) {
                assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(List.of("first", "s1", "a1", "s2", "a2"), order(up), kind);
        }
    }
}
