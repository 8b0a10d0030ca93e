package shaper.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * {@code -client-concurrency} and {@code -client-queue-depth} over real sockets, a route of 4 slots:
 * a capped client's further requests wait in its own line while slots stay free for others, its
 * line moves on when its own slot comes back, and past its depth only that client is refused,
 * with {@code 429} and {@code Retry-After} in its dialect.
 */
class ClientCapsTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String PATH = "/v1/messages";

    @Test
    void aCappedClientWaitsInItsOwnLineWithoutBlockingOthers() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = FairShareTest.gatedUpstream(gate);
             RunningShaper shaper = RunningShaper.start(FairShareTest.argv(up, List.of("-limit", "POST /messages:4"),
                     "-client-concurrency", "1", "-client-concurrency", "bob=2"))) {
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            all.add(FairShareTest.send(shaper, PATH, "swarm", "first"));
            RunningShaper.await("the swarm's first request at the upstream", BOUND, () -> up.inFlight() == 1);
            all.add(FairShareTest.send(shaper, PATH, "swarm", "s1"));
            all.add(FairShareTest.send(shaper, PATH, "swarm", "s2"));
            RunningShaper.await("the swarm's two more queued beside three free slots", BOUND, () -> FairShareTest.waiters(shaper) == 2);
            assertEquals(200, FairShareTest.send(shaper, PATH, "alice", "a1").get(20, TimeUnit.SECONDS).statusCode(),
                    "alice is not behind the capped swarm");
            assertEquals(2, FairShareTest.waiters(shaper), "the swarm still waits for its own slot");
            assertEquals(1, up.inFlight(), "the swarm holds one slot only");
            gate.countDown();
            for (var f : all) {
                assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(List.of("first", "a1", "s1", "s2"), FairShareTest.order(up));
        }
    }

    @Test
    void pastItsQueueDepthOnlyThatClientIsRefusedInItsDialect() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = FairShareTest.gatedUpstream(gate);
             RunningShaper shaper = RunningShaper.start(FairShareTest.argv(up, List.of("-limit", "POST /messages:2"),
                     "-client-concurrency", "1", "-client-queue-depth", "1"))) {
            var first = FairShareTest.send(shaper, PATH, "swarm", "first");
            RunningShaper.await("the swarm's first request at the upstream", BOUND, () -> up.inFlight() == 1);
            var s1 = FairShareTest.send(shaper, PATH, "swarm", "s1");
            RunningShaper.await("s1 queued", BOUND, () -> FairShareTest.waiters(shaper) == 1);
            HttpResponse<String> refused = FairShareTest.send(shaper, PATH, "swarm", "s2").get(20, TimeUnit.SECONDS);
            assertEquals(429, refused.statusCode());
            assertTrue(refused.headers().firstValue("retry-after").isPresent(), refused.headers().map().toString());
            assertTrue(refused.body().contains("\"type\":\"error\""), "an Anthropic error body: " + refused.body());
            assertEquals(200, FairShareTest.send(shaper, PATH, "alice", "a1").get(20, TimeUnit.SECONDS).statusCode(),
                    "another client is not affected");
            gate.countDown();
            assertEquals(200, first.get(20, TimeUnit.SECONDS).statusCode());
            assertEquals(200, s1.get(20, TimeUnit.SECONDS).statusCode());
            RunningShaper.await("every slot back", BOUND, () -> shaper.server().limiters("default").stream()
                    .allMatch(l -> l.inUse() == 0 && l.waiters() == 0));
        }
    }
}
