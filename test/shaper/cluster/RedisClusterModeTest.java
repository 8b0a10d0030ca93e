package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;

/**
 * {@code redis-cluster://} on three masters: every key of a limiter carries one hash tag, so each
 * lease script runs on one slot; wake-ups published on one node reach subscribers on others; and
 * a live migration of the limiter's slot mid-burst (ASK, TRYAGAIN, then MOVED) is no outage and
 * keeps the limit.
 */
class RedisClusterModeTest {
    @Test
    void aBurstOnRedisClusterHoldsTheSharedLimit() throws Exception {
        try (RedisClusterNodes redis = RedisClusterNodes.start(); var up = SharedLimitBurst.slowUpstream()) {
            List<RunningShaper> shapers = SharedLimitBurst.instances(up, "-limiter-backend", redis.url(), "-limiter-namespace", "burst");
            try {
                SharedLimitBurst.run(up, shapers, 30);
                String health = Clients.get(shapers.getFirst().uri("/__shaper/health")).body();
                assertTrue(health.contains("\"backend\":\"redis-cluster\"") && health.contains("\"nodes\":"), health);
            } finally {
                SharedLimitBurst.closeAll(shapers);
            }
        }
    }

    @Test
    void aSlotMigrationOfTheLimitersKeysMidBurstKeepsTheLimit() throws Exception {
        PeaksByTag peaks = new PeaksByTag();
        try (RedisClusterNodes redis = RedisClusterNodes.start(); var up = peaks.upstream) {
            List<RunningShaper> shapers = SharedLimitBurst.instances(up, "-limiter-backend", redis.url(), "-limiter-namespace", "moving");
            try {
                int slot = redis.slotOf(LeaseCalls.baseKey("moving", "default") + ":p");
                RedisProcess source = redis.owner(slot);
                RedisProcess target = redis.nodes.stream().filter(n -> n != source).findFirst().orElseThrow();
                List<CompletableFuture<Integer>> burst = SharedLimitBurst.fire(shapers, 40, "moving");
                RunningShaper.await("the burst under way", SharedLimitBurst.BOUND, () -> peaks.seen("moving") >= 8);
                redis.migrate(slot, target);
                SharedLimitBurst.assertAllOk(burst);
                assertSame(target, redis.owner(slot), "the limiter's slot moved");
                assertEquals(0, (long) redis.admin(source, j -> j.clusterCountKeysInSlot(slot)), "no key of the limiter left behind");
                assertTrue(peaks.peak("moving") <= SharedLimitBurst.LIMIT, "peak across the migration: " + peaks.peak("moving"));
                for (RunningShaper s : shapers) {
                    assertTrue(s.logLines("unreachable").isEmpty(), "a migration is not an outage: " + s.stdout());
                }
                SharedLimitBurst.assertAllOk(SharedLimitBurst.fire(shapers, 20, "after"));
                assertTrue(peaks.peak("after") <= SharedLimitBurst.LIMIT, "peak after the migration: " + peaks.peak("after"));
            } finally {
                SharedLimitBurst.closeAll(shapers);
            }
        }
    }
}
