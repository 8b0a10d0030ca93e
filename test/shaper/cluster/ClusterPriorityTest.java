package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Priority classes in the cluster-wide queue, on a real Redis with two instances: the order spans
 * both instances' waiters (weighted fair across classes, FIFO within one), background is never
 * starved, and a full queue refuses the newest background waiter wherever it waits.
 */
class ClusterPriorityTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String[] CLASSES = {"-priority-class", "interactive=4", "-priority-class", "background=1"};
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

    private static RunningShaper[] pair(String ns, ScriptedUpstream up, String... more) {
        List<String> flags = new ArrayList<>(List.of(CLASSES));
        flags.addAll(List.of(more));
        return ClusterQueueTest.pair(redis, ns + (++namespaces), up, flags.toArray(String[]::new));
    }

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper s, String cls, String id) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(s.uri("/v1/n/" + id)).timeout(Duration.ofSeconds(60))
                .header("X-Shaper-Priority", cls).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Queues each of {@code ids} ({@code i…} interactive, {@code b…} background) on alternate instances, one at a time. */
    private static List<CompletableFuture<HttpResponse<String>>> queue(RunningShaper[] s, List<String> ids) {
        List<CompletableFuture<HttpResponse<String>>> out = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            out.add(send(s[i % 2], id.startsWith("i") ? "interactive" : "background", id));
            int expected = i + 1;
            RunningShaper.await(id + " queued", BOUND, () -> ClusterQueueTest.waiters(s[0]) == expected);
        }
        return out;
    }

    private static List<String> servedOrder(ScriptedUpstream up) {
        return up.requests().stream().map(r -> r.target()).filter(t -> t.startsWith("/v1/n/")).map(t -> t.substring(6)).toList();
    }

    private static void holdTheOnlySlot(RunningShaper s, ScriptedUpstream up, List<CompletableFuture<HttpResponse<String>>> into) {
        into.add(Clients.getAsync(s.uri("/v1/hold")));
        RunningShaper.await("the only slot held", BOUND, () -> up.inFlight() == 1);
    }

    @Test
    void anInteractiveWaiterIsServedBeforeEarlierBackgroundWaitersOfEitherInstance() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ClusterQueueTest.gatedHold(gate)) {
            RunningShaper[] s = pair("classes", up);
            try {
                List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
                holdTheOnlySlot(s[0], up, all);
                all.addAll(queue(s, List.of("b0", "b1", "b2", "b3", "i0", "i1", "i2", "i3")));
                gate.countDown();
                for (var f : all) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                assertEquals(List.of("i0", "b0", "i1", "i2", "i3", "b1", "b2", "b3"), servedOrder(up),
                        "weights 4:1 across both instances' waiters, each class in arrival order");
                assertEquals(1, up.peakInFlight());
                for (RunningShaper r : s) {
                    assertFalse(r.stderr().contains("priority classes"), "no warning about classes in cluster mode: " + r.stderr());
                }
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void backgroundIsServedItsShareWhileInteractiveWaitersKeepComing() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ClusterQueueTest.gatedHold(gate)) {
            RunningShaper[] s = pair("share", up);
            try {
                List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
                holdTheOnlySlot(s[0], up, all);
                List<String> ids = new ArrayList<>(List.of("b0", "b1", "b2"));
                for (int i = 0; i < 10; i++) {
                    ids.add("i" + i);
                }
                all.addAll(queue(s, ids));
                gate.countDown();
                for (var f : all) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                assertEquals(List.of("i0", "b0", "i1", "i2", "i3", "i4", "b1", "i5", "i6", "i7", "i8", "b2", "i9"), servedOrder(up),
                        "one slot in five goes to background however many interactive waiters there are");
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }

    @Test
    void aFullQueueRefusesTheNewestBackgroundWaiterOnTheOtherInstance() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ClusterQueueTest.gatedHold(gate)) {
            RunningShaper[] s = pair("overflow", up, "-queue-depth", "2");
            try {
                List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
                holdTheOnlySlot(s[0], up, held);
                List<CompletableFuture<HttpResponse<String>>> waiting = queue(s, List.of("b0", "b1"));
                HttpResponse<String> b2 = send(s[0], "background", "b2").get(30, TimeUnit.SECONDS);
                assertEquals(429, b2.statusCode(), "a background arrival at a full queue is itself refused");
                var i0 = send(s[0], "interactive", "i0");
                HttpResponse<String> displaced = waiting.get(1).get(30, TimeUnit.SECONDS);
                assertEquals(429, displaced.statusCode(), "b1, waiting on the other instance, gives its place to i0");
                assertTrue(displaced.body().contains("queue_full") || displaced.body().contains("rate_limit"), displaced.body());
                assertTrue(displaced.headers().firstValue("Retry-After").isPresent());
                assertEquals(2, ClusterQueueTest.waiters(s[0]), "i0 took b1's place");
                gate.countDown();
                for (var f : List.of(held.getFirst(), waiting.getFirst(), i0)) {
                    assertEquals(200, f.get(30, TimeUnit.SECONDS).statusCode());
                }
                assertEquals(List.of("i0", "b0"), servedOrder(up));
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }
}
