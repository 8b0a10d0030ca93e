package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.ratelimit.RateLimitKind;
import shaper.testing.RunningShaper;

/**
 * Token budgets in cluster mode: two instances on one Redis pace one account together (their
 * buckets live in Redis), and while Redis is away the fallback rules of cluster mode apply: each
 * instance paces by its own buckets, which remember what it spent ({@code local}), or budgeted
 * requests get a 503, waiters included ({@code closed}).
 */
class ClusterTokenBudgetTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String BODY = "{\"model\":\"claude-pace\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    /** The account: {@code rpm} requests a minute, tokens plenty. */
    private static String messages(int rpm) {
        return "/v1/messages?rpm=" + rpm + "&itpm=1000000&otpm=1000000";
    }

    /** The fixture upstream, stopped on close. */
    private record Probe(ProbeServer server) implements AutoCloseable {
        URI uri(String path) {
            return server.uri(path);
        }

        @Override
        public void close() {
            server.stop();
        }
    }

    private static Probe probe() {
        ProbeConfig d = ProbeConfig.defaults(0);
        return new Probe(ProbeServer.start(d.withRateLimits(new ProbeConfig.RateLimitDefaults(50, 30_000, 8_000, 8))));
    }

    /** Two proxies in front of {@code probe}'s {@code /ratelimited}, their budgets in {@code redis}. */
    private static RunningShaper[] pair(String redisUrl, Probe probe, String... flags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", probe.uri("/ratelimited").toString(), "-retry", "0",
                "-circuit-breaker=false", "-limiter-backend", redisUrl, "-limiter-namespace", "tokens",
                // generous: a loaded test machine must not trip the fallback by a scheduling stall
                "-limiter-redis-timeout", "10s"));
        argv.addAll(List.of(flags));
        RunningShaper a = RunningShaper.start(argv.toArray(String[]::new));
        RunningShaper b;
        try {
            b = RunningShaper.start(argv.toArray(String[]::new));
        } catch (RuntimeException e) {
            a.close();
            throw e;
        }
        for (RunningShaper s : new RunningShaper[] {a, b}) {
            RunningShaper.await("cluster link connected", BOUND, () -> !s.logLines("cluster limiter: connected").isEmpty());
        }
        return new RunningShaper[] {a, b};
    }

    /** A test on two proxies sharing one fresh Redis in front of one fresh probe. */
    private interface PairTest {
        void run(RedisProcess redis, Probe probe, RunningShaper[] s) throws Exception;
    }

    private static void onPair(PairTest test, String... flags) throws Exception {
        try (RedisProcess redis = RedisProcess.startFresh(); Probe probe = probe()) {
            RunningShaper[] s = pair(redis.url(), probe, flags);
            try {
                test.run(redis, probe, s);
            } finally {
                for (RunningShaper r : s) {
                    r.close();
                }
            }
        }
    }

    private static long upstream429s(Probe probe) throws Exception {
        String counts = Clients.get(probe.uri("/__probe/ratelimited")).body();
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(counts).path("rejected").asLong();
    }

    private static double requestsLevel(RunningShaper s) {
        return s.server().assembly("default").tokens().budget().orElseThrow().levels().get(RateLimitKind.REQUESTS);
    }

    private static int post(RunningShaper s, int rpm) throws Exception {
        return Clients.post(s.uri(messages(rpm)), BODY).statusCode();
    }

    private static CompletableFuture<HttpResponse<String>> postAsync(RunningShaper s, int rpm) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return Clients.post(s.uri(messages(rpm)), BODY);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static int queued(RunningShaper s) {
        return s.server().assembly("default").tokens().budget().orElseThrow().queued();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void twoInstancesOnOneRedisKeepOneBudget() throws Exception {
        // Each instance alone would admit 57 at once and its twin 57 more: 114 against an account of
        // 60 draws the upstream's 429s. Sharing one bucket of 57 (95 % of the account), the 9 beyond
        // it wait for the refill (about one a second) and none is refused.
        onPair((redis, probe, s) -> {
            int requests = 66;
            List<Future<Integer>> sent = new ArrayList<>();
            try (ExecutorService clients = Executors.newFixedThreadPool(8)) {
                for (int i = 0; i < requests; i++) {
                    RunningShaper via = s[i % 2];
                    sent.add(clients.submit(() -> post(via, 60)));
                }
                List<Integer> statuses = new ArrayList<>();
                for (Future<Integer> f : sent) {
                    statuses.add(f.get(120, TimeUnit.SECONDS));
                }
                assertEquals(java.util.Collections.nCopies(requests, 200), statuses, "every request was paced, none refused");
            }
            assertEquals(0, upstream429s(probe), "the two instances never together exceeded the account");
            assertTrue(requestsLevel(s[0]) < 10 && requestsLevel(s[1]) < 10,
                    "both see the one shared bucket nearly empty: " + requestsLevel(s[0]) + " / " + requestsLevel(s[1]));
            String logs = s[0].stdout() + s[1].stdout();
            assertTrue(!logs.contains("unreachable"), "no instance fell back to its own buckets: " + logs);
        }, "-rpm", "57", "-itpm", "900000", "-queue-timeout", "90s");
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void withRedisAwayEachInstancePacesByItsOwnBucketsWhichRememberItsSpending() throws Exception {
        // 4 a minute: one more every 15 s, far longer than the queue timeout
        onPair((redis, probe, s) -> {
            for (int i = 0; i < 3; i++) {
                assertEquals(200, post(s[0], 1000));
            }
            assertTrue(requestsLevel(s[1]) < 2, "the second instance sees the first one's spending: " + requestsLevel(s[1]));
            redis.kill();
            for (RunningShaper r : s) {
                RunningShaper.await("fallback", BOUND, () -> !r.logLines("unreachable").isEmpty());
            }
            assertEquals(200, post(s[0], 1000), "the first instance's own bucket has one request left");
            assertEquals(504, post(s[0], 1000), "then it waits for the refill: it spent 3 of its 4 before the outage");
            for (int i = 0; i < 4; i++) {
                assertEquals(200, post(s[1], 1000), "the second instance spent nothing itself: its own 4");
            }
            assertEquals(504, post(s[1], 1000));
        }, "-rpm", "4", "-queue-timeout", "2s");
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void failingClosedRefusesBudgetedRequestsAndTheirWaitersWith503() throws Exception {
        onPair((redis, probe, s) -> {
            assertEquals(200, post(s[0], 1000));
            CompletableFuture<HttpResponse<String>> waiter = postAsync(s[1], 1000);
            RunningShaper.await("a waiter on the second instance", BOUND, () -> queued(s[1]) == 1);
            redis.kill();
            HttpResponse<String> r = waiter.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(r.body().contains("unavailable"), r.body());
            assertEquals(503, post(s[0], 1000), "a new arrival is refused too");
            URI models = s[0].uri("/v1/models");
            assertTrue(Clients.get(models).statusCode() != 503, "a request that costs nothing never asks the budget");
        }, "-rpm", "1", "-queue-timeout", "90s", "-limiter-redis-fallback", "closed");
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void whatOneInstanceLearnsFromTheHeadersPacesTheOther() throws Exception {
        onPair((redis, probe, s) -> {
            assertEquals(200, post(s[0], 2), "the account allows 2 a minute; its headers say so");
            assertTrue(requestsLevel(s[1]) <= 1.5, "the second instance sent nothing, yet knows: " + requestsLevel(s[1]));
            assertEquals(200, post(s[1], 2), "the second request of the minute");
            CompletableFuture<HttpResponse<String>> waiter = postAsync(s[0], 2);
            RunningShaper.await("the third waits for the refill", BOUND, () -> queued(s[0]) == 1);
            HttpResponse<String> full = Clients.post(s[0].uri(messages(2)), BODY);
            assertEquals(429, full.statusCode(), full.body());
            long after = Long.parseLong(full.headers().firstValue("retry-after").orElseThrow());
            assertTrue(after >= 5 && after <= 31, "the shared bucket's wait for its head: " + after);
            assertEquals(0, upstream429s(probe), "nobody was sent beyond the account");
            waiter.cancel(true);
        }, "-budget-from-headers", "-queue-timeout", "30s", "-queue-depth", "1");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void onRedisClusterAProvidersBudgetLivesInOneSlot() throws Exception {
        try (RedisClusterNodes redis = RedisClusterNodes.start(); Probe probe = probe()) {
            RunningShaper[] s = pair(redis.url(), probe, "-rpm", "57", "-budget-from-headers", "-queue-timeout", "60s");
            try {
                for (int i = 0; i < 6; i++) {
                    assertEquals(200, post(s[i % 2], 60));
                }
                assertTrue(requestsLevel(s[0]) <= 55 && requestsLevel(s[1]) <= 55,
                        "both instances spent from one bucket: " + requestsLevel(s[0]) + " / " + requestsLevel(s[1]));
                String base = LeaseCalls.baseKey("tokens", "budget:tokens");
                int slot = redis.slotOf(base + ":b");
                assertEquals(slot, redis.slotOf(base + ":hold"));
                assertEquals(slot, redis.slotOf(base + ":w"));
                assertEquals(Boolean.TRUE, redis.admin(redis.owner(slot), j -> j.exists(base + ":b")), "the buckets live on the slot's node");
                for (RunningShaper r : s) {
                    assertTrue(r.logLines("unreachable").isEmpty(), "no script crossed a slot: " + r.stdout());
                }
            } finally {
                for (RunningShaper r : s) {
                    r.close();
                }
            }
        }
    }
}
