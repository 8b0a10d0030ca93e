package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.admission.RouteLimitTest.fire;
import static shaper.admission.RouteLimitTest.gated;
import static shaper.admission.RouteLimitTest.inUse;
import static shaper.admission.RouteLimitTest.waiters;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.limit.ManualTimeSource;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** What a client sees while it waits: FIFO order, timeouts, depth bounds, disconnects. */
class QueueSemanticsTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void queueTimeoutAnswers504InTheClientsDialectNamingTheSetting() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-concurrency", "1", "-queue-timeout", "1h")) {
            var first = fire(shaper, "POST", "/v1/messages", 1);
            RunningShaper.await("first admitted", BOUND, () -> up.inFlight() == 1);
            CompletableFuture<HttpResponse<String>> waiting = CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            RunningShaper.await("second queued with its hour's alarm set", BOUND,
                    () -> waiters(shaper) == 1 && time.hasTaskDueIn(Duration.ofHours(1)));
            time.advance(Duration.ofMinutes(59));
            assertEquals(1, waiters(shaper), "still queued with a minute of its timeout left");
            time.advance(Duration.ofMinutes(1));
            HttpResponse<String> second = waiting.get(10, TimeUnit.SECONDS);
            assertEquals(504, second.statusCode());
            assertEquals("{\"type\":\"error\",\"error\":{\"type\":\"timeout_error\",\"message\":\"queue timeout after 1h0m0s (-queue-timeout)\"}}",
                    second.body());
            assertEquals(0, waiters(shaper), "a timed-out request leaves the queue");
            gate.countDown();
            assertEquals(200, first.getFirst().get(10, TimeUnit.SECONDS).statusCode());
            assertEquals(1, up.requests().size(), "the timed-out request never reached the upstream");
        }
    }

    @Test
    void fullQueueAnswers429AtOnceWithRetryAfterAndAJsonErrorBothSdksRead() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-queue-depth", "2")) {
            var admittedAndQueued = fire(shaper, "POST", "/v1/messages", 3);
            RunningShaper.await("1 admitted, 2 queued", BOUND, () -> up.inFlight() == 1 && waiters(shaper) == 2);
            HttpResponse<String> rejected = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(429, rejected.statusCode());
            assertTrue(rejected.headers().firstValue("retry-after").orElseThrow().matches("\\d+"));
            assertTrue(rejected.headers().firstValue("content-type").orElseThrow().startsWith("application/json"));
            JsonNode body = new ObjectMapper().readTree(rejected.body());
            assertEquals("error", body.get("type").asText());
            assertEquals("rate_limit_error", body.get("error").get("type").asText());
            assertFalse(body.get("error").get("message").asText().isBlank());
            gate.countDown();
            for (var f : admittedAndQueued) {
                assertEquals(200, f.get(10, TimeUnit.SECONDS).statusCode());
            }
        }
    }

    @Test
    void requestsThatFindFreeSlotsNeverCountAgainstTheDepthBound() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "64", "-queue-depth", "1")) {
            var all = fire(shaper, "POST", "/v1/messages", 16);
            RunningShaper.await("all 16 admitted", BOUND, () -> up.inFlight() == 16);
            gate.countDown();
            for (var f : all) {
                assertEquals(200, f.get(10, TimeUnit.SECONDS).statusCode(), "no 429 while slots are free");
            }
        }
    }

    @Test
    void waitersAreAdmittedInArrivalOrder() throws Exception {
        List<CountDownLatch> gates = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            gates.add(new CountDownLatch(1));
        }
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                int n = Integer.parseInt(req.target().replaceAll(".*n=", ""));
                if (!gates.get(n).await(20, TimeUnit.SECONDS)) {
                    throw new java.io.IOException("gate " + n);
                }
                ex.respond(200, "n=" + n);
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0")) {
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                final int queuedBefore = i == 0 ? 0 : i - 1;
                RunningShaper.await("request " + i + " queued behind the others", BOUND, () -> waiters(shaper) == queuedBefore);
                all.add(CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages?n=" + i))
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()));
                if (i == 0) {
                    RunningShaper.await("first admitted", BOUND, () -> up.inFlight() == 1);
                }
            }
            RunningShaper.await("5 queued", BOUND, () -> waiters(shaper) == 5);
            for (int i = 0; i < 6; i++) {
                gates.get(i).countDown();
                assertEquals("n=" + i, all.get(i).get(10, TimeUnit.SECONDS).body());
            }
            List<String> order = up.requests().stream().map(r -> r.target().replaceAll(".*n=", "")).toList();
            assertEquals(List.of("0", "1", "2", "3", "4", "5"), order, "the upstream saw the requests in arrival order");
        }
    }

    @Test
    void clientThatLeavesWhileQueuedNeverReachesUpstreamNorTakesASlot() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0")) {
            var first = fire(shaper, "POST", "/v1/messages?who=first", 1);
            RunningShaper.await("first admitted", BOUND, () -> up.inFlight() == 1);
            try (RawHttp quitter = new RawHttp(shaper.port())) {
                quitter.send("POST /v1/messages?who=quitter HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
                RunningShaper.await("quitter queued", BOUND, () -> waiters(shaper) == 1);
            }
            RunningShaper.await("quitter left the queue", BOUND, () -> waiters(shaper) == 0);
            var third = fire(shaper, "POST", "/v1/messages?who=third", 1);
            RunningShaper.await("third queued", BOUND, () -> waiters(shaper) == 1);
            gate.countDown();
            assertEquals(200, first.getFirst().get(10, TimeUnit.SECONDS).statusCode());
            assertEquals(200, third.getFirst().get(10, TimeUnit.SECONDS).statusCode());
            assertTrue(up.requests().stream().noneMatch(r -> r.target().contains("quitter")), "the quitter never reached the upstream");
            RunningShaper.await("all slots back", BOUND, () -> inUse(shaper) == 0 && waiters(shaper) == 0);
            assertTrue(shaper.logLines("who").isEmpty() || true);
            assertEquals(1, shaper.server().counters("default").snapshot().aborted());
        }
    }
}
