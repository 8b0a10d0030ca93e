package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.cluster.ClusterQueueTest.gatedHold;
import static shaper.cluster.ClusterQueueTest.pair;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;

/**
 * What an operator sees of a cluster: {@code shaper_queued} counts an instance's own waiters (so a
 * sum over instances counts each once), {@code shaper_cluster_queued} the queue of every instance,
 * and the health route each clustered provider's link (up or fallback, kind, master, the error).
 */
class ClusterObservabilityTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    private static String metrics(RunningShaper s) throws Exception {
        HttpResponse<String> r = Clients.get(URI.create("http://127.0.0.1:" + s.server().metricsPort().orElseThrow() + "/metrics"));
        assertEquals(200, r.statusCode());
        return r.body();
    }

    @Test
    void queuedCountsThisInstancesWaitersAndClusterQueuedEveryInstances() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh(); var up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "series", up, "-metrics-bind", "127.0.0.1:0");
            try {
                List<CompletableFuture<?>> all = new ArrayList<>();
                all.add(Clients.getAsync(s[0].uri("/v1/hold/0")));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                for (int i = 1; i <= 5; i++) {
                    all.add(Clients.getAsync(s[0].uri("/v1/hold/" + i)));
                }
                RunningShaper.await("five queued on the first instance", BOUND, () -> ClusterQueueTest.waiters(s[0]) == 5);
                String busy = metrics(s[0]);
                String idle = metrics(s[1]);
                assertTrue(busy.contains("shaper_queued{provider=\"default\"} 5.0"), busy);
                assertTrue(idle.contains("shaper_queued{provider=\"default\"} 0.0"), "the idle instance has no waiters of its own: " + idle);
                for (String m : List.of(busy, idle)) {
                    assertTrue(m.contains("shaper_cluster_queued{provider=\"default\"} 5.0"), m);
                }
                gate.countDown();
                for (CompletableFuture<?> f : all) {
                    f.get(30, TimeUnit.SECONDS);
                }
            } finally {
                gate.countDown();
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void healthShowsTheLinkUpThenOnItsFallbackDuringAnOutage() throws Exception {
        try (RedisProcess redis = RedisProcess.startFresh(); var up = gatedHold(new CountDownLatch(0))) {
            RunningShaper[] s = pair(redis, "health", up, "-metrics-bind", "127.0.0.1:0");
            try {
                String health = Clients.get(s[0].uri("/__shaper/health")).body();
                assertTrue(health.contains("\"limiter\":{\"backend\":\"redis\",\"endpoint\":\"redis://127.0.0.1:" + redis.port() + "/0\","
                        + "\"state\":\"up\",\"up\":true,\"fallback\":\"local\",\"master\":\"127.0.0.1:" + redis.port() + "\""), health);

                redis.kill();
                RunningShaper.await("fallback", BOUND, () -> !s[0].logLines("unreachable").isEmpty());
                HttpResponse<String> during = Clients.get(s[0].uri("/__shaper/health"));
                assertEquals(200, during.statusCode(), "the proxy still serves, on its fallback");
                assertTrue(during.body().contains("\"state\":\"fallback\",\"up\":false") && during.body().contains("\"error\":"), during.body());
                String m = metrics(s[0]);
                assertTrue(m.contains("shaper_limiter_backend_up{provider=\"default\"} 0.0"), m);
                assertFalse(m.contains("shaper_cluster_queued{"), "the cluster's queue is unknown during an outage: " + m);
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }
}
