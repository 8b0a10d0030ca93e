package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;

/**
 * {@code redis-sentinel://}: the shared limit holds on the master the sentinels name, and a forced
 * failover mid-burst costs what README says: while no master answers each instance runs on its
 * fallback (at most instances × limit in all), every request completes, the instances follow the
 * new master, and the limit holds there again.
 */
class RedisSentinelTest {
    private static final int INSTANCES = 3;

    @Test
    void aBurstOnSentinelHoldsTheSharedLimitAndHealthNamesTheMaster() throws Exception {
        try (RedisSentinels redis = RedisSentinels.start(); var up = SharedLimitBurst.slowUpstream()) {
            List<RunningShaper> shapers = SharedLimitBurst.instances(up, "-limiter-backend", redis.url());
            try {
                SharedLimitBurst.run(up, shapers, 30);
                String health = Clients.get(shapers.getFirst().uri("/__shaper/health")).body();
                assertTrue(health.contains("\"backend\":\"redis-sentinel\"") && health.contains("\"state\":\"up\"")
                        && health.contains("\"master\":\"127.0.0.1:" + redis.master.port() + "\""), health);
            } finally {
                SharedLimitBurst.closeAll(shapers);
            }
        }
    }

    @Test
    void aForcedFailoverMidBurstStaysWithinTheDocumentedBoundAndTheLimitHoldsOnTheNewMaster() throws Exception {
        PeaksByTag peaks = new PeaksByTag();
        try (RedisSentinels redis = RedisSentinels.start(); var up = peaks.upstream) {
            List<RunningShaper> shapers = SharedLimitBurst.instances(up, "-limiter-backend", redis.url());
            try {
                List<CompletableFuture<Integer>> during = SharedLimitBurst.fire(shapers, 40, "during");
                RunningShaper.await("the burst under way", SharedLimitBurst.BOUND, () -> peaks.seen("during") >= 6);
                redis.failover();
                SharedLimitBurst.assertAllOk(during);
                assertTrue(peaks.peak("during") <= INSTANCES * SharedLimitBurst.LIMIT,
                        "during the failover at most instances x limit: " + peaks.peak("during"));

                int newMaster = redis.currentMasterPort();
                assertEquals(redis.replica.port(), newMaster);
                for (RunningShaper s : shapers) {
                    RunningShaper.await("following the new master", SharedLimitBurst.BOUND, () -> {
                        LinkSnapshot l = s.server().limiterBackend("default").orElseThrow();
                        return l.up() && ("127.0.0.1:" + newMaster).equals(l.current());
                    });
                }
                SharedLimitBurst.assertAllOk(SharedLimitBurst.fire(shapers, 30, "after"));
                assertTrue(peaks.peak("after") <= SharedLimitBurst.LIMIT, "the shared limit on the new master: " + peaks.peak("after")
                        + "\n" + String.join("\n", shapers.stream().flatMap(s -> s.logLines("cluster limiter").stream()).toList()));
                String health = Clients.get(shapers.getFirst().uri("/__shaper/health")).body();
                assertTrue(health.contains("\"master\":\"127.0.0.1:" + newMaster + "\""), health);
            } finally {
                SharedLimitBurst.closeAll(shapers);
            }
        }
    }
}
