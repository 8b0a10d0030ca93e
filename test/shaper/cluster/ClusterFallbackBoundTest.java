package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.cluster.ClusterQueueTest.gatedHold;
import static shaper.cluster.ClusterQueueTest.pair;
import static shaper.cluster.ClusterQueueTest.waiters;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The bound README promises for the {@code local} fallback, instances × limit, holds across the
 * switch itself: the permits Redis granted before the outage count against the local limit that
 * follows, so neither the waiters that move to the local queue nor new arrivals take slots that
 * running exchanges still use.
 */
class ClusterFallbackBoundTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    private static LimiterSnapshot defaultPool(RunningShaper s) {
        return s.server().limiters("default").getFirst();
    }

    @Test
    void permitsGrantedBeforeTheOutageCountAgainstTheLocalLimit() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (RedisProcess redis = RedisProcess.startFresh(); ScriptedUpstream up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "bound", up, "-concurrency", "2");
            try {
                List<CompletableFuture<?>> all = new ArrayList<>();
                all.add(Clients.getAsync(s[0].uri("/v1/hold/1")));
                all.add(Clients.getAsync(s[0].uri("/v1/hold/2")));
                RunningShaper.await("both shared slots held by the first instance", BOUND, () -> up.inFlight() == 2);
                all.add(Clients.getAsync(s[0].uri("/v1/hold/w1")));
                all.add(Clients.getAsync(s[0].uri("/v1/hold/w2")));
                RunningShaper.await("two waiters in the cluster queue", BOUND, () -> waiters(s[0]) == 2);

                redis.kill();
                RunningShaper.await("fallback on the first instance", BOUND, () -> !s[0].logLines("unreachable").isEmpty());
                RunningShaper.await("the waiters moved to the local queue behind the two running exchanges", BOUND,
                        () -> defaultPool(s[0]).inUse() == 2 && defaultPool(s[0]).waiters() == 2);
                all.add(Clients.getAsync(s[0].uri("/v1/hold/new")));
                RunningShaper.await("a new arrival waits too", BOUND, () -> defaultPool(s[0]).waiters() == 3);

                all.add(Clients.getAsync(s[1].uri("/v1/hold/3")));
                all.add(Clients.getAsync(s[1].uri("/v1/hold/4")));
                RunningShaper.await("the second instance runs its own limit", BOUND, () -> up.inFlight() == 4);
                all.add(Clients.getAsync(s[1].uri("/v1/hold/5")));
                RunningShaper.await("and queues past it", BOUND, () -> defaultPool(s[1]).waiters() == 1);
                assertEquals(4, up.inFlight(), "instances x limit, not more");

                gate.countDown();
                for (CompletableFuture<?> f : all) {
                    f.get(30, TimeUnit.SECONDS);
                }
                assertEquals(4, up.peakInFlight(), "the upstream never had more than instances x limit");
            } finally {
                gate.countDown();
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void redisKilledIntoABurstNeverLetsMoreThanInstancesTimesLimitThrough() throws Exception {
        try (RedisProcess redis = RedisProcess.startFresh();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 Thread.sleep(150);
                 ex.respond(200, "ok", "Content-Type: text/plain");
             })) {
            RunningShaper[] s = pair(redis, "burstkill", up, "-concurrency", "2", "-queue-timeout", "120s");
            try {
                List<URI> uris = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    uris.add(s[i % 2].uri("/v1/burst/" + i));
                }
                Collections.shuffle(uris);
                List<CompletableFuture<Integer>> burst = uris.stream().map(u -> Clients.getAsync(u).thenApply(r -> r.statusCode())).toList();
                RunningShaper.await("the burst under way", BOUND, () -> up.requests().size() >= 4);
                redis.kill();
                for (CompletableFuture<Integer> f : burst) {
                    assertEquals(200, f.get(60, TimeUnit.SECONDS));
                }
                assertTrue(!s[0].logLines("unreachable").isEmpty() || !s[1].logLines("unreachable").isEmpty());
                assertTrue(up.peakInFlight() <= 4, "peak " + up.peakInFlight() + " over instances x limit = 4");
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }
}
