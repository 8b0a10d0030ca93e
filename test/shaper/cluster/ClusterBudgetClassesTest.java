package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.observe.InFlight;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Priority classes in a token budget whose buckets live in a real Redis: the instance orders its
 * own token waiters by class, and the shared head reservation follows the head the fair order
 * picks. A background head that does not fit reserves the buckets; an interactive arrival whose
 * turn comes first becomes the head, so that reservation is left and the arrival, which fits, is
 * granted at once instead of waiting behind its own instance's old reservation.
 */
class ClusterBudgetClassesTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String USED = "{\"type\":\"message\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}";

    /** About {@code tokens} input tokens (the estimate counts JSON text at 4 characters a token). */
    private static String body(int tokens) {
        return "{\"model\":\"m\",\"pad\":\"" + "x".repeat(tokens * 4) + "\"}";
    }

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper shaper, String cls, String id, int tokens) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/passthrough?id=" + id)).timeout(BOUND)
                .header("X-Shaper-Priority", cls).POST(HttpRequest.BodyPublishers.ofString(body(tokens))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long waitingForTokens(RunningShaper shaper) {
        return shaper.server().journal("default").inFlight().stream()
                .filter(i -> i.state() == InFlight.State.QUEUED && i.waitingFor().startsWith("waiting for tokens")).count();
    }

    @Test
    void theReservationFollowsTheHeadTheClassesPick() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().contains("id=first") && !gate.await(30, TimeUnit.SECONDS)) {
                     throw new java.io.IOException("gate never opened");
                 }
                 ex.respond(200, USED);
             });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-circuit-breaker=false",
                     "-limiter-backend", redis.url(), "-limiter-namespace", "classes", "-limiter-redis-timeout", "10s",
                     "-limit", "POST /messages:5", "-itpm", "1000",
                     "-priority-class", "interactive=4", "-priority-class", "background=1")) {
            RunningShaper.await("cluster link connected", BOUND, () -> !shaper.logLines("cluster limiter: connected").isEmpty());
            var first = send(shaper, "interactive", "first", 750);
            RunningShaper.await("the first request at the upstream", BOUND, () -> up.inFlight() == 1);
            var b0 = send(shaper, "background", "b0", 750);
            RunningShaper.await("b0 waits for tokens, reserving them in Redis", BOUND, () -> waitingForTokens(shaper) == 1);
            var i0 = send(shaper, "interactive", "i0", 50);
            // answered while the first still holds the gate: it passed the reservation its instance's old head held
            assertEquals(200, i0.get(30, TimeUnit.SECONDS).statusCode());
            assertEquals(1, waitingForTokens(shaper), "b0 still waits for its 750");
            gate.countDown();
            assertEquals(200, first.get(30, TimeUnit.SECONDS).statusCode());
            assertEquals(200, b0.get(30, TimeUnit.SECONDS).statusCode());
            List<String> order = up.requests().stream().map(r -> r.target().replaceAll(".*id=", "")).toList();
            assertEquals(List.of("first", "i0", "b0"), order);
        }
    }
}
