package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
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
 * A routed request that waited past {@code -fallback-after} in a Redis-held queue and moved to the
 * next target gives its place back: two instances on one {@code redis-server} share provider a's one
 * slot; the request that moved leaves no waiter in Redis, and a's slot is free again for either
 * instance once the holder finishes.
 */
class ClusterRoutedFallbackTest {
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

    private static RunningShaper instance(String upA, String upB) {
        List<String> argv = new ArrayList<>(List.of("-bind", "127.0.0.1:0", "-route-prefix", "/r", "-model-route", "claude-*=a,b",
                "-fallback-after", "300ms",
                "--provider=a", "-upstream", upA, "-prefix", "/a", "-retry", "0", "-limit-all", "-concurrency", "1",
                "-release-cooldown", "0", "-queue-timeout", "20s", "-limiter-backend", redis.url(), "-limiter-namespace", "routed",
                "-limiter-redis-timeout", "10s",
                "--provider=b", "-upstream", upB, "-prefix", "/b", "-retry", "0"));
        RunningShaper s = RunningShaper.start(argv.toArray(String[]::new));
        RunningShaper.await("cluster link connected", BOUND, () -> !s.logLines("cluster limiter: connected").isEmpty());
        return s;
    }

    private static CompletableFuture<HttpResponse<String>> post(RunningShaper s, String path, String model) {
        String body = "{\"model\":\"" + model + "\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        return CLIENT.sendAsync(HttpRequest.newBuilder(s.uri(path)).timeout(BOUND).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long waiters(RunningShaper s) {
        return s.server().limiterBackend("a").orElseThrow().clusterWaiters();
    }

    @Test
    void aRequestThatMovesOnLeavesNoPlaceInTheRedisQueue() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> {
            if (req.bodyText().contains("hold") && !gate.await(20, TimeUnit.SECONDS)) {
                throw new IOException("gate never opened");
            }
            ex.respond(200, "{\"from\":\"a\"}", "Content-Type: application/json");
        });
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper one = instance(a.url(), b.url());
             RunningShaper two = instance(a.url(), b.url())) {
            try {
                var held = post(one, "/a/v1/messages", "hold");
                RunningShaper.await("a's one cluster slot held by the first instance", BOUND, () -> a.inFlight() == 1);
                HttpResponse<String> moved = post(two, "/r/v1/messages", "claude-x").get(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertEquals("{\"from\":\"b\"}", moved.body(), "it waited in a's Redis queue, then moved to b");
                RunningShaper.await("no waiter left in Redis", BOUND, () -> waiters(one) == 0 && waiters(two) == 0);
                gate.countDown();
                assertEquals(200, held.get(BOUND.toSeconds(), TimeUnit.SECONDS).statusCode());
                for (RunningShaper s : List.of(two, one)) {
                    HttpResponse<String> direct = post(s, "/r/v1/messages", "claude-x").get(BOUND.toSeconds(), TimeUnit.SECONDS);
                    assertEquals("{\"from\":\"a\"}", direct.body(), "a's one slot is free again: nothing held it for the request that moved");
                }
                assertEquals(3, a.requests().size());
            } finally {
                gate.countDown();
            }
        }
    }
}
