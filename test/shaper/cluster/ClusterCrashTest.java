package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * SIGKILL of an instance that holds every shared permit: the permits come back within the lease,
 * the survivor's queued requests are admitted in their arrival order, and the upstream never sees
 * more than the limit (a killed instance's exchanges end when its connections drop).
 */
// Waits on wall time on purpose: the killed instance's leases expire on Redis's own clock, which no test clock can move.
class ClusterCrashTest {
    private static final Duration LEASE = Duration.ofSeconds(2);

    @Test
    @Timeout(value = 6, unit = java.util.concurrent.TimeUnit.MINUTES) // builds and starts shaper processes
    void permitsOfAKilledInstanceReturnWithinTheLease() throws Exception {
        // the first two admitted answer only once both reached the upstream: otherwise one could finish and
        // let the third in before the other's request was even sent, and arrival order would say nothing
        java.util.concurrent.CountDownLatch firstTwo = new java.util.concurrent.CountDownLatch(2);
        try (RedisProcess redis = RedisProcess.startFresh();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().startsWith("/v1/after/")) {
                     firstTwo.countDown();
                     if (!firstTwo.await(30, TimeUnit.SECONDS)) {
                         throw new java.io.IOException("the first two admitted requests never both arrived");
                     }
                 }
                 if (req.target().startsWith("/v1/hold")) {
                     // answers nothing; returns when the proxy's connection drops (its process died)
                     InputStream in = ex.socket().getInputStream();
                     while (in.read() != -1) {
                         // drain
                     }
                     return;
                 }
                 ex.respond(200, "ok", "Content-Type: text/plain");
             })) {
            String[] flags = {"-upstream", up.url(), "-limit-all", "-concurrency", "2", "-release-cooldown", "0",
                    "-queue-timeout", "60s", "-limiter-backend", redis.url(), "-limiter-lease", "2s", "-limiter-redis-timeout", "10s"};
            try (ShaperJvm doomed = ShaperJvm.start(flags).awaitReady();
                 RunningShaper survivor = RunningShaper.start(flags)) {
                RunningShaper.await("survivor connected", Duration.ofSeconds(20),
                        () -> !survivor.logLines("cluster limiter: connected").isEmpty());
                List<CompletableFuture<HttpResponse<String>>> held = List.of(
                        Clients.getAsync(Clients.uri(doomed.port(), "/v1/hold/1")),
                        Clients.getAsync(Clients.uri(doomed.port(), "/v1/hold/2")));
                RunningShaper.await("both permits held at the upstream", Duration.ofSeconds(20), () -> up.inFlight() == 2);

                List<CompletableFuture<HttpResponse<String>>> queued = new ArrayList<>();
                for (int i = 1; i <= 3; i++) {
                    queued.add(Clients.getAsync(Clients.uri(survivor.port(), "/v1/after/" + i)));
                    int waiting = i;
                    RunningShaper.await("request " + i + " queued", Duration.ofSeconds(20),
                            // Redis's count: the local one grows before the ticket's ENQUEUE script runs,
                            // so the next request could reach Redis first and the order would say nothing
                            () -> ClusterQueueTest.waiters(survivor) == waiting);
                }
                long killedAt = System.nanoTime();
                doomed.kill();
                for (CompletableFuture<HttpResponse<String>> f : queued) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                Duration freedAfter = Duration.ofNanos(System.nanoTime() - killedAt);
                assertTrue(freedAfter.compareTo(LEASE.plusSeconds(4)) < 0,
                        "queued requests admitted " + freedAfter.toMillis() + " ms after the kill (lease 2s)");
                List<String> order = up.requests().stream().map(r -> r.target()).filter(t -> t.startsWith("/v1/after/")).toList();
                // the two slots return together, so the first two are admitted at once and may reach
                // the upstream in either order; the third waits for one of them to finish
                assertEquals(java.util.Set.of("/v1/after/1", "/v1/after/2"), java.util.Set.copyOf(order.subList(0, 2)), "order " + order);
                assertEquals("/v1/after/3", order.get(2), "the last arrival is admitted last");
                assertTrue(up.peakInFlight() <= 2, "peak in flight " + up.peakInFlight() + " over the shared limit 2");
                held.forEach(f -> f.cancel(true));
            }
        }
    }
}
