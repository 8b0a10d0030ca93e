package shaper.cluster;

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

import shaper.limit.LimiterSnapshot;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * {@code -adaptive-concurrency} with {@code -limiter-backend}: the learnt limit lives in Redis, so a
 * 429 one instance sees lowers the limit the other admits by, and both report it.
 */
class ClusterAdaptiveTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    private static int limit(RunningShaper s) {
        return s.server().limiters("default").stream().filter(l -> l.name().endsWith(" default"))
                .mapToInt(LimiterSnapshot::effectiveLimit).findFirst().orElseThrow();
    }

    private static int waiters(RunningShaper s) {
        return s.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    @Test
    void a429SeenThroughOneInstanceLowersTheLimitTheOtherUses() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().startsWith("/v1/over")) {
                     ex.respond(429, "{\"error\":\"slow down\"}", "Content-Type: application/json");
                     return;
                 }
                 if (req.target().startsWith("/v1/hold") && !gate.await(30, TimeUnit.SECONDS)) {
                     throw new java.io.IOException("gate never opened");
                 }
                 ex.respond(200, "ok", "Content-Type: text/plain");
             })) {
            String[] flags = {"-upstream", up.url(), "-limit-all", "-concurrency", "8", "-adaptive-concurrency", "-concurrency-min", "2",
                    "-retry", "0", "-circuit-breaker=false", "-release-cooldown", "0", "-limiter-backend", redis.url(),
                    "-limiter-namespace", "adaptive", "-limiter-redis-timeout", "10s"};
            RunningShaper a = RunningShaper.start(flags);
            RunningShaper b = RunningShaper.start(flags);
            for (RunningShaper r : List.of(a, b)) {
                RunningShaper.await("cluster link connected", BOUND, () -> !r.logLines("cluster limiter: connected").isEmpty());
            }
            try {
                assertEquals(8, limit(a));
                assertEquals(8, limit(b));
                assertEquals(429, Clients.get(a.uri("/v1/over")).statusCode());
                RunningShaper.await("instance A logs the move", BOUND,
                        () -> !a.logLines("limit provider=default limiter=default 8 -> 7 (429)").isEmpty());
                RunningShaper.await("instance B reports the shared limit", BOUND, () -> limit(b) == 7);
                assertEquals(7, limit(a));

                List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    held.add(Clients.getAsync(b.uri("/v1/hold/" + i)));
                }
                RunningShaper.await("seven at the upstream and the eighth queued on B", BOUND,
                        () -> up.inFlight() == 7 && waiters(b) == 1);
                gate.countDown();
                for (var f : held) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                assertTrue(up.peakInFlight() <= 7, "B admitted by the limit A's 429 set: " + up.peakInFlight());
                assertTrue(a.stderr().isEmpty() || !a.stderr().contains("not available"), a.stderr());
            } finally {
                a.close();
                b.close();
            }
        }
    }
}
