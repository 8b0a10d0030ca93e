package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Fair share between clients in the cluster-wide queue, on a real Redis with two instances: a swarm
 * client queues eight requests through one instance, then an interactive client one through the
 * other; the one queue serves the interactive request right after the swarm's head, and the swarm
 * keeps its own arrival order.
 */
class ClusterFairShareTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static RedisProcess redis;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisProcess.startFresh();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper s, String team, String id) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(s.uri("/v1/n/" + id)).timeout(Duration.ofSeconds(60))
                .header("X-Team", team).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void twoInstancesKeepOneFairQueueBetweenClients() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ClusterQueueTest.gatedHold(gate)) {
            RunningShaper[] s = ClusterQueueTest.pair(redis, "fair", up, "-client-id", "header:x-team");
            try {
                List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
                all.add(Clients.getAsync(s[0].uri("/v1/hold")));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                for (int i = 0; i < 8; i++) {
                    all.add(send(s[0], "swarm", "s" + i));
                    int expected = i + 1;
                    RunningShaper.await("s" + i + " queued", BOUND, () -> ClusterQueueTest.waiters(s[1]) == expected);
                }
                all.add(send(s[1], "alice", "alice"));
                RunningShaper.await("alice queued", BOUND, () -> ClusterQueueTest.waiters(s[0]) == 9);
                gate.countDown();
                for (var f : all) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                List<String> order = up.requests().stream().map(r -> r.target()).filter(t -> t.startsWith("/v1/n/"))
                        .map(t -> t.substring(6)).toList();
                assertEquals(List.of("s0", "alice", "s1", "s2", "s3", "s4", "s5", "s6", "s7"), order,
                        "the other instance's interactive client is served after the swarm's head, not behind all of it");
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }
}
