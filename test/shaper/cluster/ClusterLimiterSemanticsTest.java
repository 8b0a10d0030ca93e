package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import shaper.limit.Limiter;
import shaper.limit.Permit;
import shaper.limit.QueueFullException;
import shaper.limit.QueueTimeoutException;
import shaper.limit.SystemTimeSource;
import shaper.limit.Ticket;
import shaper.testing.RunningShaper;

/**
 * The limiter contract of {@code shaper.limit} holds for cluster limiters shared by two instances
 * (two backends with their own links, ids and subscriber connections) on one real Redis: the
 * bound, arrival order across instances, holds kept in Redis, depth, timeout, cancellation.
 */
// Holds and cooldowns wait on wall time on purpose: they are kept in Redis and end on Redis's own clock.
class ClusterLimiterSemanticsTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static RedisProcess redis;
    private static SystemTimeSource time;
    private static final List<ClusterBackend> backends = new ArrayList<>();
    private static int namespaces;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisProcess.startFresh();
        time = new SystemTimeSource("cluster-test-timer");
    }

    @AfterAll
    static void stopRedis() throws Exception {
        backends.forEach(ClusterBackend::close);
        time.close();
        redis.close();
    }

    /** Two instances sharing a fresh namespace. */
    private static ClusterBackend[] pair() {
        String ns = "test" + (++namespaces);
        ClusterBackend[] pair = new ClusterBackend[2];
        for (int i = 0; i < 2; i++) {
            ClusterConfig cfg = new ClusterConfig(RedisEndpoint.parse(redis.url()), ns, RedisFallback.LOCAL, Duration.ofSeconds(3),
                    Duration.ofSeconds(5), RedisSecurity.DEFAULT);
            pair[i] = ClusterBackend.open(cfg, URI.create("http://127.0.0.1:1"), time, k -> null, line -> { });
            backends.add(pair[i]);
            ClusterBackend b = pair[i];
            RunningShaper.await("link up", BOUND, () -> b.snapshot().up());
        }
        return pair;
    }

    @Test
    void permitsAreBoundedAcrossInstances() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a default", 2, Duration.ZERO, Duration.ZERO);
        Limiter b = p[1].create("default", "b default", 2, Duration.ZERO, Duration.ZERO);
        Permit one = a.tryAcquire();
        Permit two = b.tryAcquire();
        assertNotNull(one);
        assertNotNull(two);
        assertNull(a.tryAcquire(), "a third permit while two are held on the other instances");
        assertNull(b.tryAcquire());
        assertEquals(2, b.snapshot().inUse());
        one.release();
        Permit[] three = new Permit[1];
        RunningShaper.await("a released slot is free without cooldown (the release reaches Redis in the background)", BOUND,
                () -> (three[0] = tryAcquire(b)) != null);
        two.release();
        three[0].release();
        RunningShaper.await("every slot back", BOUND, () -> a.snapshot().inUse() == 0);
    }

    @Test
    void waitersOnBothInstancesAreGrantedInArrivalOrder() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a", 1, Duration.ZERO, Duration.ZERO);
        Limiter b = p[1].create("default", "b", 1, Duration.ZERO, Duration.ZERO);
        Permit held = a.tryAcquire();
        List<Ticket> tickets = List.of(b.enqueue(0), a.enqueue(0), b.enqueue(0), a.enqueue(0));
        tickets.forEach(t -> assertTrue(t.queued()));
        assertEquals(4, ((ClusterLimiter) a).clusterWaiters(), "the cluster's queue");
        assertEquals(2, a.snapshot().waiters(), "this instance's own waiters");
        Permit current = held;
        for (Ticket t : tickets) {
            current.release();
            current = t.await(BOUND);
            for (Ticket later : tickets.subList(tickets.indexOf(t) + 1, tickets.size())) {
                assertTrue(later.queued(), "a later arrival was granted before an earlier one");
            }
        }
        current.release();
    }

    @Test
    void aHoldStaysHeldInRedisForItsDuration() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a", 1, Duration.ZERO, Duration.ZERO);
        Limiter b = p[1].create("default", "b", 1, Duration.ZERO, Duration.ZERO);
        Permit held = a.tryAcquire();
        long start = System.nanoTime();
        held.releaseAfter(Duration.ofMillis(700));
        assertTrue(held.released());
        assertNull(b.tryAcquire(), "the held slot is still taken for the other instance");
        Ticket t = b.enqueue(0);
        Permit next = t.await(BOUND);
        long waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertTrue(waited >= 600, "granted after " + waited + " ms, before the 700 ms hold ended");
        next.release();
    }

    @Test
    void releaseCooldownDelaysTheNextGrantOnTheOtherInstance() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a", 1, Duration.ofMillis(400), Duration.ZERO);
        Limiter b = p[1].create("default", "b", 1, Duration.ofMillis(400), Duration.ZERO);
        Permit held = a.tryAcquire();
        Ticket t = b.enqueue(0);
        long start = System.nanoTime();
        held.release();
        Permit next = t.await(BOUND);
        long waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertTrue(waited >= 300, "granted " + waited + " ms after release, inside the 400 ms cooldown");
        next.release();
    }

    @Test
    void queueDepthCountsWaitersOfEveryInstance() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a", 1, Duration.ZERO, Duration.ZERO);
        Limiter b = p[1].create("default", "b", 1, Duration.ZERO, Duration.ZERO);
        Permit held = a.tryAcquire();
        Ticket waiting = a.enqueue(1);
        assertTrue(waiting.queued());
        QueueFullException e = assertThrows(QueueFullException.class, () -> b.enqueue(1));
        assertEquals(1, e.depth());
        waiting.cancel();
        held.release();
    }

    @Test
    void aTimedOutOrCancelledWaiterLeavesTheClusterQueue() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a", 1, Duration.ZERO, Duration.ZERO);
        Limiter b = p[1].create("default", "b", 1, Duration.ZERO, Duration.ZERO);
        Permit held = a.tryAcquire();
        Ticket timesOut = b.enqueue(0);
        assertThrows(QueueTimeoutException.class, () -> timesOut.await(Duration.ofMillis(200)));
        Ticket cancelled = b.enqueue(0);
        assertTrue(cancelled.cancel());
        assertFalse(cancelled.cancel(), "cancel is idempotent");
        RunningShaper.await("waiters gone from redis", BOUND, () -> ((ClusterLimiter) a).clusterWaiters() == 0);
        Ticket last = a.enqueue(0);
        held.release();
        last.await(BOUND).release();
    }

    @Test
    void aGrantedButUnclaimedSlotThatIsCancelledGoesToTheNextWaiterWithoutCooldown() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a", 1, Duration.ofMillis(1500), Duration.ZERO);
        Limiter b = p[1].create("default", "b", 1, Duration.ofMillis(1500), Duration.ZERO);
        Permit held = a.tryAcquire();
        Ticket first = b.enqueue(0);
        Ticket second = a.enqueue(0);
        held.release();
        RunningShaper.await("first granted after the cooldown", BOUND, () -> !first.queued());
        assertTrue(second.queued());
        long start = System.nanoTime();
        assertTrue(first.cancel(), "cancelling a granted, unclaimed ticket");
        Permit next = second.await(BOUND);
        long took = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertTrue(took < 1000, "the unused slot skipped the 1500 ms cooldown, took " + took + " ms");
        next.release();
    }

    @Test
    void adaptiveHeadroomWithholdsASlotClusterWide() throws Exception {
        ClusterBackend[] p = pair();
        Limiter a = p[0].create("default", "a", 2, Duration.ZERO, Duration.ofMillis(600));
        Limiter b = p[1].create("default", "b", 2, Duration.ZERO, Duration.ofMillis(600));
        a.onRateLimited();
        Permit one = b.tryAcquire();
        assertNotNull(one);
        assertNull(b.tryAcquire(), "one of two slots is withheld after a 429 on the other instance");
        assertEquals(1, b.snapshot().effectiveLimit());
        Ticket t = b.enqueue(0);
        Permit two = t.await(BOUND);
        assertNotNull(two, "the withheld slot returns after the window");
        one.release();
        two.release();
    }

    private static Permit tryAcquire(Limiter l) {
        try {
            return l.tryAcquire();
        } catch (shaper.limit.LimiterUnavailableException e) {
            throw new AssertionError(e);
        }
    }
}
