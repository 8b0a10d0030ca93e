package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Every limiter of a provider is shared, not only the default pool: a route's {@code :N}, the
 * global limiter and the large-request gate each queue a request on one instance behind a slot
 * held on the other.
 */
class ClusterLimitersTest {
    private static final java.time.Duration BOUND = java.time.Duration.ofSeconds(20);

    /** This instance's own waiters on the limiter named {@code ...suffix}. */
    private static int waitersOf(RunningShaper s, String suffix) {
        return s.server().limiters("default").stream().filter(l -> l.name().endsWith(suffix)).mapToInt(LimiterSnapshot::waiters).sum();
    }

    @Test
    void routeGlobalAndLargeRequestLimitersAreSharedAcrossInstances() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().contains("hold=1") && !gate.await(30, TimeUnit.SECONDS)) {
                     throw new java.io.IOException("gate never opened");
                 }
                 ex.respond(200, "ok", "Content-Type: text/plain");
             })) {
            String[] flags = {"-upstream", up.url(), "-limit", "GET /v1/route:1", "-global-concurrency", "4", "-release-cooldown", "0",
                    "-big-ctx-tokens", "10", "-big-ctx-concurrency", "1", "-limiter-backend", redis.url(), "-limiter-namespace", "all",
                    "-limiter-redis-timeout", "10s"};
            RunningShaper a = RunningShaper.start(flags);
            RunningShaper b = RunningShaper.start(flags);
            try {
                for (RunningShaper s : List.of(a, b)) {
                    RunningShaper.await("connected", BOUND, () -> !s.logLines("cluster limiter: connected").isEmpty());
                }
                String big = "{\"pad\":\"" + "x".repeat(64) + "\"}";
                var routeHeld = Clients.getAsync(a.uri("/v1/route?hold=1"));
                var bigHeld = java.util.concurrent.CompletableFuture.supplyAsync(() -> post(a, "/v1/big?hold=1", big));
                RunningShaper.await("route and gate slots held on the first instance", BOUND, () -> up.inFlight() == 2);

                var routeQueued = Clients.getAsync(b.uri("/v1/route"));
                RunningShaper.await("route waiter on the other instance", BOUND, () -> waitersOf(b, "GET /v1/route") == 1);
                var bigQueued = java.util.concurrent.CompletableFuture.supplyAsync(() -> post(b, "/v1/big", big));
                RunningShaper.await("large-request waiter on the other instance", BOUND, () -> waitersOf(b, "large-request gate") == 1);

                var passHeld = Clients.getAsync(b.uri("/v1/other?hold=1"));
                // global: route, large, the queued large request (it keeps its global slot while it waits on the gate), this one
                RunningShaper.await("the fourth global slot held", BOUND, () -> up.inFlight() == 3);
                var passQueued = Clients.getAsync(a.uri("/v1/other"));
                RunningShaper.await("global waiter on the first instance", BOUND, () -> waitersOf(a, "global") == 1);

                assertEquals(3, up.requests().size(), "nothing queued reached the upstream");
                gate.countDown();
                for (var f : List.of(routeHeld, passHeld, routeQueued, passQueued)) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                assertEquals(200, (int) bigHeld.get(30, TimeUnit.SECONDS));
                assertEquals(200, (int) bigQueued.get(30, TimeUnit.SECONDS));
                org.junit.jupiter.api.Assertions.assertTrue(up.peakInFlight() <= 4, "the global limit of 4 held across both instances: " + up.peakInFlight());
            } finally {
                a.close();
                b.close();
            }
        }
    }

    private static int post(RunningShaper s, String path, String body) {
        try {
            return Clients.post(s.uri(path), body).statusCode();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
