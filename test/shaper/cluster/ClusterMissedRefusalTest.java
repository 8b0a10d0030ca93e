package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;
import shaper.limit.Permit;
import shaper.limit.QueueClass;
import shaper.limit.QueueFullException;
import shaper.limit.SystemTimeSource;
import shaper.testing.RunningShaper;

/**
 * A waiter refused by overflow whose {@code !id} push never arrived: the next renewal finds it in
 * the refused set and answers it 429 (README: a full queue refuses the newest ticket of the lightest
 * class wherever it waits). Without that path the renewal would see the ticket as lost, queue it
 * again, and the waiter would wait out its whole timeout instead.
 */
class ClusterMissedRefusalTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    /** What ENQUEUE does to its victim at a full queue, without the PUBLISH: a push that was missed. */
    private static final String REFUSE_SILENTLY = """
            local b, id = ARGV[1], ARGV[2]
            redis.call('ZREM', b .. ':q', id); redis.call('ZREM', b .. ':ql', id); redis.call('ZREM', b .. ':qa', id)
            redis.call('ZREM', b .. ':qt', id); redis.call('HDEL', b .. ':qw', id)
            redis.call('ZADD', b .. ':qr', 9000000000000000, id)
            return 1
            """;

    @Test
    @Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
    void aRenewalDeliversARefusalWhosePushWasMissed() throws Exception {
        try (RedisProcess redis = RedisProcess.startFresh();
             SystemTimeSource time = new SystemTimeSource("cluster-missed-refusal-timer");
             Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            ClusterConfig cfg = new ClusterConfig(RedisEndpoint.parse(redis.url()), "missed", RedisFallback.LOCAL,
                    Duration.ofSeconds(30), Duration.ofSeconds(5), RedisSecurity.DEFAULT);
            ClusterBackend b = ClusterBackend.open(cfg, URI.create("http://127.0.0.1:1"), time, k -> null, line -> { });
            try {
                RunningShaper.await("link up", BOUND, () -> b.snapshot().up());
                ClusterLimiter limiter = (ClusterLimiter) b.create("default", "default", 1, Duration.ZERO, Duration.ZERO);
                Permit held = limiter.acquire(0, BOUND);
                ClusterTicket waiter = (ClusterTicket) limiter.enqueue(1, QueueClass.DEFAULT);
                Set<String> queues = jedis.keys("*:qt");
                assertEquals(1, queues.size(), "one limiter's class queue in Redis: " + queues);
                String base = queues.iterator().next().replaceFirst(":qt$", "");
                jedis.eval(REFUSE_SILENTLY, List.of(), List.of(base, waiter.id()));

                limiter.renew();

                assertThrows(QueueFullException.class, () -> waiter.await(BOUND),
                        "the renewal found the refusal: the waiter is answered at once, not at its timeout");
                assertEquals(0L, jedis.zcard(base + ":q"), "nothing queued again for the refused waiter");
                held.release();
            } finally {
                b.close();
            }
        }
    }
}
