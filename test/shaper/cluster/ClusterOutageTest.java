package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.cluster.ClusterQueueTest.gatedHold;
import static shaper.cluster.ClusterQueueTest.pair;
import static shaper.cluster.ClusterQueueTest.waiters;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Redis dies and comes back empty (no persistence) while instances run: the fallback takes over
 * with one logged transition per instance, queued requests are not stranded, and after recovery
 * the exchanges still running are registered again so the shared limit holds for new arrivals.
 */
class ClusterOutageTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    /** The /metrics text of {@code s} (started with -metrics-bind). */
    private static String metrics(RunningShaper s) throws Exception {
        HttpResponse<String> r = Clients.get(java.net.URI.create("http://127.0.0.1:" + s.server().metricsPort().orElseThrow() + "/metrics"));
        assertEquals(200, r.statusCode());
        return r.body();
    }

    private static int inUse(RunningShaper s) {
        return s.server().limiters("default").getFirst().inUse();
    }

    @Test
    void localFallbackServesDuringTheOutageAndRecoveryRegistersRunningExchangesAgain() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh(); ScriptedUpstream up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "outage", up, "-concurrency", "2", "-metrics-bind", "127.0.0.1:0");
            try {
                var hold1 = Clients.getAsync(s[0].uri("/v1/hold/1"));
                var hold2 = Clients.getAsync(s[0].uri("/v1/hold/2"));
                RunningShaper.await("both shared slots held by the first instance", BOUND, () -> up.inFlight() == 2);
                var waiting = Clients.getAsync(s[1].uri("/v1/waiting"));
                RunningShaper.await("a waiter on the second instance", BOUND, () -> waiters(s[1]) == 1);

                redis.kill();
                for (RunningShaper r : s) {
                    RunningShaper.await("fallback logged", BOUND, () -> r.logLines("unreachable").size() == 1);
                    assertTrue(r.logLines("unreachable").getFirst().contains("fallback local"), r.stdout());
                    assertFalse(r.server().limiterBackend("default").orElseThrow().up());
                    String metrics = metrics(r);
                    assertTrue(metrics.contains("shaper_limiter_backend_up{provider=\"default\"} 0.0"), metrics);
                    assertTrue(metrics.contains("shaper_limiter_backend_transitions_total{provider=\"default\"} 1.0"), metrics);
                }
                assertEquals(200, waiting.get(30, TimeUnit.SECONDS).statusCode(),
                        "the queued request moved to the second instance's own limit");
                assertEquals(200, Clients.get(s[1].uri("/v1/during")).statusCode());

                redis.start();
                for (RunningShaper r : s) {
                    RunningShaper.await("recovery logged", BOUND, () -> r.logLines("reachable again").size() == 1);
                    assertEquals(2, r.server().limiterBackend("default").orElseThrow().transitions());
                    String metrics = metrics(r);
                    assertTrue(metrics.contains("shaper_limiter_backend_up{provider=\"default\"} 1.0"), metrics);
                    assertTrue(metrics.contains("shaper_limiter_backend_transitions_total{provider=\"default\"} 2.0"), metrics);
                }
                RunningShaper.await("the two running exchanges registered in the empty redis", BOUND, () -> inUse(s[1]) == 2);
                var after = Clients.getAsync(s[1].uri("/v1/after"));
                RunningShaper.await("a new arrival waits for the shared limit", BOUND, () -> waiters(s[0]) == 1);
                assertTrue(up.requests().stream().noneMatch(r -> r.target().equals("/v1/after")));
                gate.countDown();
                assertEquals(200, hold1.get(30, TimeUnit.SECONDS).statusCode());
                assertEquals(200, hold2.get(30, TimeUnit.SECONDS).statusCode());
                assertEquals(200, after.get(30, TimeUnit.SECONDS).statusCode());
                RunningShaper.await("every slot back", BOUND, () -> inUse(s[0]) == 0 && waiters(s[0]) == 0);
                for (RunningShaper r : s) {
                    assertEquals(1, r.logLines("unreachable").size(), "one line per transition: " + r.stdout());
                }
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void closedFallbackAnswers503InTheClientsDialectUntilRedisIsBack() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh(); ScriptedUpstream up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "closed", up, "-limiter-redis-fallback", "closed");
            try {
                var hold = Clients.getAsync(s[0].uri("/v1/hold"));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                var waiting = Clients.getAsync(s[1].uri("/v1/waiting"));
                RunningShaper.await("a waiter", BOUND, () -> waiters(s[1]) == 1);

                redis.kill();
                HttpResponse<String> stranded = waiting.get(30, TimeUnit.SECONDS);
                assertEquals(503, stranded.statusCode(), "a waiter in the lost queue is answered, not stranded");
                RunningShaper.await("fallback logged", BOUND, () -> s[1].logLines("unreachable").size() == 1);
                assertTrue(s[1].logLines("unreachable").getFirst().contains("fallback closed"), s[1].stdout());

                HttpResponse<String> messages = Clients.post(s[1].uri("/v1/messages"), "{\"model\":\"m\",\"max_tokens\":1}");
                assertEquals(503, messages.statusCode());
                assertTrue(messages.body().startsWith("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\""), messages.body());
                HttpResponse<String> chat = Clients.post(s[1].uri("/v1/chat/completions"), "{\"model\":\"m\"}");
                assertEquals(503, chat.statusCode());
                assertTrue(chat.body().startsWith("{\"error\":{\"type\":\"server_error\",\"code\":\"limiter_unavailable\""), chat.body());
                assertTrue(up.requests().stream().noneMatch(r -> r.target().contains("messages") || r.target().contains("chat")));

                redis.start();
                RunningShaper.await("recovery logged", BOUND, () -> s[1].logLines("reachable again").size() == 1);
                gate.countDown();
                HttpResponse<String> held = hold.get(30, TimeUnit.SECONDS);
                assertEquals(200, held.statusCode(), "a running exchange is not cut by the outage: " + held.body());
                assertEquals(200, Clients.get(s[1].uri("/v1/back")).statusCode());
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void aRedisThatStopsAnsweringCountsAsUnreachableAfterTheCallTimeout() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh(); ScriptedUpstream up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "slow", up, "-concurrency", "2", "-limiter-redis-timeout", "500ms");
            try {
                redis.pause();
                long start = System.nanoTime();
                HttpResponse<String> r = Clients.get(s[0].uri("/v1/while-hung"));
                long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
                assertEquals(200, r.statusCode(), "admitted by the local fallback");
                assertTrue(tookMs < 8000, "the hung call was cut by its timeout, took " + tookMs + " ms");
                RunningShaper.await("fallback logged", BOUND, () -> s[0].logLines("unreachable").size() == 1);
                assertTrue(s[0].logLines("unreachable").getFirst().contains("Timeout"), s[0].stdout());
                redis.resume();
                RunningShaper.await("recovery logged", BOUND, () -> s[0].logLines("reachable again").size() == 1);
                assertEquals(200, Clients.get(s[0].uri("/v1/after")).statusCode());
                assertTrue(s[0].server().limiterBackend("default").orElseThrow().up());
            } finally {
                gate.countDown();
                s[0].close();
                s[1].close();
            }
        }
    }
}
