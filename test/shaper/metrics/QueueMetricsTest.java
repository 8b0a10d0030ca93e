package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The smarter queue's series over a real proxy: a slot held after a failure shows as held (not as a
 * free slot that nobody takes), waiters show per class, the class's queue wait is observed, the limit
 * in force is exported and an unknown class named in the header is counted.
 */
class QueueMetricsTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper shaper, String path, String cls) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).header("X-Shaper-Priority", cls)
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void slotsByStateClassesAndTheLimitAreExported() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().contains("hold") && !gate.await(10, TimeUnit.SECONDS)) {
                     throw new java.io.IOException("gate never opened");
                 }
                 ex.respond(req.target().contains("fail") ? 500 : 200, "{}");
             });
             RunningShaper shaper = RunningShaper.start("-metrics-bind", "127.0.0.1:0", "-upstream", up.url(), "-retry", "0",
                     "-limit", "POST /v1/messages:2", "-failure-hold", "30s", "-circuit-breaker=false", "-release-cooldown", "0",
                     "-priority-class", "interactive=4", "-priority-class", "background=1")) {
            assertEquals(500, send(shaper, "/v1/messages?fail", "interactive").get(10, TimeUnit.SECONDS).statusCode());
            var holding = send(shaper, "/v1/messages?hold", "background");
            RunningShaper.await("one slot held, one active", BOUND, () -> up.inFlight() == 1);
            var waiting = send(shaper, "/v1/messages?later", "background");
            var unknown = send(shaper, "/v1/messages?later", "urgent");
            RunningShaper.await("two waiters", BOUND, () -> shaper.server().journal("default").queued().size() == 2);
            String route = "POST /v1/messages"; // the limiter label: the pattern without its limit
            Scrape s = Scrape.of(shaper);
            assertEquals(1, s.value("shaper_slots", "provider", "default", "limiter", route, "state", "held"));
            assertEquals(1, s.value("shaper_slots", "provider", "default", "limiter", route, "state", "active"));
            assertEquals(0, s.value("shaper_slots", "provider", "default", "limiter", route, "state", "cooling"));
            assertEquals(2, s.value("shaper_limit", "provider", "default", "limiter", route));
            assertEquals(1, s.value("shaper_class_queued", "provider", "default", "class", "background"));
            assertEquals(1, s.value("shaper_class_queued", "provider", "default", "class", "interactive"),
                    "an unknown class waits in the default class, the first declared");
            assertEquals(1, s.value("shaper_priority_unknown_total", "provider", "default"));
            gate.countDown();
            for (var f : java.util.List.of(holding, waiting, unknown)) {
                assertEquals(200, f.get(10, TimeUnit.SECONDS).statusCode());
            }
            RunningShaper.await("all recorded", BOUND, () -> shaper.server().journal("default").recent().size() == 4);
            Scrape after = Scrape.of(shaper);
            assertEquals(2, after.value("shaper_class_queue_wait_seconds_count", "provider", "default", "class", "background"));
            assertEquals(2, after.value("shaper_class_queue_wait_seconds_count", "provider", "default", "class", "interactive"));
            assertTrue(shaper.stdout().contains(" class=background "), shaper.stdout());
        }
    }
}
