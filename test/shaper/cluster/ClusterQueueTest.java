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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The queue is one queue across instances: arrival order, depth, timeout and clients that leave.
 * Two in-process instances stand in for two processes here: each has its own Redis link, pool,
 * subscriber connection and instance id, and shares nothing with the other but the JVM, so the
 * properties under test (which live in Redis) are the same; {@link ClusterCrashTest} and
 * {@link ClusterBudgetTest} use real processes where a process boundary matters.
 */
class ClusterQueueTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static RedisProcess redis;
    private static int namespaces;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisProcess.startFresh();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    /** Two connected instances sharing a fresh namespace, with {@code flags} on top. */
    static RunningShaper[] pair(RedisProcess redis, String ns, ScriptedUpstream up, String... flags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", up.url(), "-limit-all", "-concurrency", "1",
                "-release-cooldown", "0", "-limiter-backend", redis.url(), "-limiter-namespace", ns,
                // generous: a loaded test machine must not trip the fallback by a scheduling stall
                "-limiter-redis-timeout", "10s"));
        argv.addAll(List.of(flags));
        RunningShaper[] pair = {RunningShaper.start(argv.toArray(String[]::new)), RunningShaper.start(argv.toArray(String[]::new))};
        for (RunningShaper s : pair) {
            RunningShaper.await("cluster link connected", BOUND, () -> !s.logLines("cluster limiter: connected").isEmpty());
        }
        return pair;
    }

    /** Requests queued in Redis by every instance, as {@code s} sees the cluster's queue. */
    static long waiters(RunningShaper s) {
        return s.server().limiterBackend("default").orElseThrow().clusterWaiters();
    }

    static ScriptedUpstream gatedHold(CountDownLatch gate) {
        return ScriptedUpstream.start((req, ex) -> {
            if (req.target().startsWith("/v1/hold") && !gate.await(30, TimeUnit.SECONDS)) {
                throw new java.io.IOException("gate never opened");
            }
            ex.respond(200, "done " + req.target(), "Content-Type: text/plain");
        });
    }

    @Test
    void requestsArrivingAlternatelyAtTwoInstancesAreAdmittedInArrivalOrder() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "order" + (++namespaces), up);
            try {
                var hold = Clients.getAsync(s[0].uri("/v1/hold"));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                List<CompletableFuture<HttpResponse<String>>> queued = new ArrayList<>();
                List<String> sent = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    RunningShaper target = s[i % 2];
                    sent.add("/v1/n/" + i);
                    queued.add(Clients.getAsync(target.uri("/v1/n/" + i)));
                    int expected = i + 1;
                    RunningShaper.await("request " + i + " queued", BOUND, () -> waiters(s[0]) == expected);
                }
                gate.countDown();
                assertEquals(200, hold.get(30, TimeUnit.SECONDS).statusCode());
                for (var f : queued) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                List<String> order = up.requests().stream().map(r -> r.target()).filter(t -> t.startsWith("/v1/n/")).toList();
                assertEquals(sent, order, "the upstream saw the requests in cluster-wide arrival order");
                assertEquals(1, up.peakInFlight());
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void aClientThatLeavesWhileQueuedGivesUpItsTicketOnEveryInstance() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "leave" + (++namespaces), up);
            try {
                var hold = Clients.getAsync(s[0].uri("/v1/hold"));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                try (RawHttp quitter = new RawHttp(s[1].port())) {
                    quitter.send("GET /v1/quitter HTTP/1.1\r\nHost: x\r\n\r\n");
                    RunningShaper.await("quitter queued", BOUND, () -> waiters(s[0]) == 1);
                }
                RunningShaper.await("quitter left the cluster queue", BOUND, () -> waiters(s[0]) == 0 && waiters(s[1]) == 0);
                var next = Clients.getAsync(s[0].uri("/v1/next"));
                RunningShaper.await("next queued", BOUND, () -> waiters(s[0]) == 1);
                gate.countDown();
                assertEquals(200, hold.get(30, TimeUnit.SECONDS).statusCode());
                assertEquals(200, next.get(30, TimeUnit.SECONDS).statusCode());
                assertTrue(up.requests().stream().noneMatch(r -> r.target().contains("quitter")), "the quitter never reached the upstream");
                RunningShaper.await("every slot back", BOUND,
                        () -> s[0].server().limiters("default").getFirst().inUse() == 0 && waiters(s[0]) == 0);
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void queueDepthCountsWaitersOnEveryInstance() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gatedHold(gate)) {
            RunningShaper[] s = pair(redis, "depth" + (++namespaces), up, "-queue-depth", "1");
            try {
                var hold = Clients.getAsync(s[0].uri("/v1/hold"));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                var waiting = Clients.getAsync(s[0].uri("/v1/waiting"));
                RunningShaper.await("one waiter", BOUND, () -> waiters(s[1]) == 1);
                HttpResponse<String> rejected = Clients.get(s[1].uri("/v1/rejected"));
                assertEquals(429, rejected.statusCode(), "the other instance's waiter fills the depth of 1");
                assertTrue(rejected.body().contains("\"type\":\"rate_limit_error\""), rejected.body());
                assertTrue(rejected.headers().firstValue("Retry-After").isPresent());
                gate.countDown();
                assertEquals(200, hold.get(30, TimeUnit.SECONDS).statusCode());
                assertEquals(200, waiting.get(30, TimeUnit.SECONDS).statusCode());
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void queueTimeoutAnswers504AndLeavesTheClusterQueue() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gatedHold(gate)) {
            // wall time: a cluster ticket's wait is bounded by the JVM's clock (ClusterTicket), not yet the proxy's TimeSource
            RunningShaper[] s = pair(redis, "timeout" + (++namespaces), up, "-queue-timeout", "400ms");
            try {
                var hold = Clients.getAsync(s[0].uri("/v1/hold"));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                HttpResponse<String> late = Clients.get(s[1].uri("/v1/late"));
                assertEquals(504, late.statusCode());
                assertEquals("queue timeout after 400ms (-queue-timeout)\n", late.body(), "plain text where the path speaks no API");
                assertEquals(0, waiters(s[0]), "the timed-out waiter left the cluster queue");
                gate.countDown();
                assertEquals(200, hold.get(30, TimeUnit.SECONDS).statusCode());
                assertTrue(up.requests().stream().noneMatch(r -> r.target().contains("late")));
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void aStreamingRequestQueuedOnAnotherInstanceGetsQueueCommentsThenItsStream() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
            if (req.target().startsWith("/v1/hold") && !gate.await(30, TimeUnit.SECONDS)) {
                throw new java.io.IOException("gate never opened");
            }
            ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
            ex.chunk("event: message_stop\ndata: {}\n\n");
            ex.endChunks();
        })) {
            RunningShaper[] s = pair(redis, "comments" + (++namespaces), up, "-queue-comments", "100ms");
            try {
                var hold = Clients.getAsync(s[0].uri("/v1/hold"));
                RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
                String body = "{\"stream\":true}";
                try (RawHttp raw = new RawHttp(s[1].port())) {
                    raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
                            + "Content-Length: " + body.length() + "\r\n\r\n" + body);
                    RawHttp.Head head = raw.readHead();
                    assertEquals(200, head.status(), "committed before admission");
                    assertEquals(": queue-wait elapsed=0\n\n", raw.readChunk());
                    assertTrue(raw.readChunk().startsWith(": queue-wait elapsed="), "a comment per interval while queued");
                    gate.countDown();
                    StringBuilder rest = new StringBuilder();
                    String chunk;
                    while ((chunk = raw.readChunk()) != null) {
                        rest.append(chunk);
                    }
                    assertTrue(rest.toString().endsWith("event: message_stop\ndata: {}\n\n"), rest.toString());
                }
                assertEquals(200, hold.get(30, TimeUnit.SECONDS).statusCode());
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }
}
