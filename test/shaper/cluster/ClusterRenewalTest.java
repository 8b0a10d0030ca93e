package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import shaper.limit.Permit;
import shaper.limit.SystemTimeSource;
import shaper.testing.RunningShaper;

/**
 * Renewals run while grants happen: a ticket granted during a renewal's round trip (by a push, or
 * reported by the renewal itself) keeps its permit. A renewal once sent such tickets to LEAVE, which
 * removed their running permits from Redis and let a third holder in under a limit of 2.
 */
class ClusterRenewalTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final int WORKERS = 24;
    private static final int ROUNDS = 4;

    @Test
    @Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
    void renewalsDuringABurstNeverLetAThirdHolderIn() throws Exception {
        try (RedisProcess redis = RedisProcess.startFresh();
             SystemTimeSource time = new SystemTimeSource("cluster-renewal-timer")) {
            List<ClusterBackend> backends = new ArrayList<>();
            try {
                List<ClusterLimiter> limiters = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    ClusterConfig cfg = new ClusterConfig(RedisEndpoint.parse(redis.url()), "renewal", RedisFallback.LOCAL,
                            Duration.ofSeconds(3), Duration.ofSeconds(5), RedisSecurity.DEFAULT);
                    ClusterBackend b = ClusterBackend.open(cfg, URI.create("http://127.0.0.1:1"), time, k -> null, line -> { });
                    backends.add(b);
                    RunningShaper.await("link up", BOUND, () -> b.snapshot().up());
                    limiters.add((ClusterLimiter) b.create("default", "instance " + i + " default", 2, Duration.ZERO, Duration.ZERO));
                }
                AtomicInteger holders = new AtomicInteger();
                AtomicInteger peak = new AtomicInteger();
                AtomicInteger served = new AtomicInteger();
                AtomicBoolean done = new AtomicBoolean();
                Thread renewer = Thread.ofVirtual().start(() -> {
                    while (!done.get()) {
                        limiters.forEach(ClusterLimiter::renew);
                    }
                });
                List<Thread> workers = new ArrayList<>();
                for (int w = 0; w < WORKERS; w++) {
                    ClusterLimiter limiter = limiters.get(w % 2);
                    workers.add(Thread.ofVirtual().start(() -> {
                        try {
                            for (int r = 0; r < ROUNDS; r++) {
                                Permit p = limiter.acquire(0, BOUND);
                                peak.accumulateAndGet(holders.incrementAndGet(), Math::max);
                                Thread.sleep(5); // the exchange's work while it holds the slot
                                holders.decrementAndGet();
                                p.release();
                                served.incrementAndGet();
                            }
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }));
                }
                for (Thread t : workers) {
                    assertTrue(t.join(BOUND), "a worker did not finish within " + BOUND);
                }
                done.set(true);
                assertTrue(renewer.join(BOUND), "the renewer did not stop");
                assertEquals(WORKERS * ROUNDS, served.get(), "every acquire was served");
                assertTrue(peak.get() <= 2, "peak holders " + peak.get() + " under a shared limit of 2");
            } finally {
                backends.forEach(ClusterBackend::close);
            }
        }
    }
}
