package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * The {@code shaper_client_*} series over real sockets: counted per client identity, active and
 * queued read while requests wait, the label bounded to the first 32 clients (the rest
 * {@code other}), and absent with {@code -client-metrics=false}.
 */
class ClientMetricsTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String USED = "{\"type\":\"message\",\"usage\":{\"input_tokens\":7,\"output_tokens\":3}}";

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper shaper, String team, String id) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages?id=" + id)).timeout(BOUND).header("X-Team", team)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static ScriptedUpstream upstream(CountDownLatch gate) throws Exception {
        return ScriptedUpstream.start((req, ex) -> {
            if (req.target().contains("hold") && !gate.await(20, TimeUnit.SECONDS)) {
                throw new java.io.IOException("gate never opened");
            }
            ex.respond(200, USED);
        });
    }

    @Test
    void eachClientIsCountedActiveQueuedAndByTokens() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = upstream(gate);
             RunningShaper shaper = RunningShaper.start("-metrics-bind", "127.0.0.1:0", "-upstream", up.url(), "-release-cooldown", "0",
                     "-limit", "POST /v1/messages:1", "-client-id", "header:x-team")) {
            assertEquals(200, send(shaper, "alice", "a0").get(20, TimeUnit.SECONDS).statusCode());
            var held = send(shaper, "alice", "hold");
            RunningShaper.await("alice's slot held", BOUND, () -> up.inFlight() == 1);
            var bob = send(shaper, "bob", "b0");
            RunningShaper.await("bob queued", BOUND, () -> shaper.server().journal("default").queued().size() == 1);
            Scrape during = Scrape.of(shaper);
            assertEquals(1, during.value("shaper_client_active", "provider", "default", "client", "alice"));
            assertEquals(1, during.value("shaper_client_queued", "provider", "default", "client", "bob"));
            gate.countDown();
            assertEquals(200, held.get(20, TimeUnit.SECONDS).statusCode());
            assertEquals(200, bob.get(20, TimeUnit.SECONDS).statusCode());
            RunningShaper.await("all recorded", BOUND, () -> shaper.server().journal("default").recent().size() == 3);
            Scrape after = Scrape.of(shaper);
            assertEquals(2, after.value("shaper_client_requests_total", "provider", "default", "client", "alice", "status", "2xx"));
            assertEquals(1, after.value("shaper_client_requests_total", "provider", "default", "client", "bob", "status", "2xx"));
            assertEquals(14, after.value("shaper_client_tokens_total", "provider", "default", "client", "alice", "type", "input"));
            assertEquals(3, after.value("shaper_client_tokens_total", "provider", "default", "client", "bob", "type", "output"));
            assertEquals(1, after.value("shaper_client_queue_wait_seconds_count", "provider", "default", "client", "bob"));
            assertEquals(0, after.value("shaper_client_queued", "provider", "default", "client", "bob"));
        }
    }

    @Test
    void theClientLabelIsBoundedAndCanBeTurnedOff() throws Exception {
        CountDownLatch open = new CountDownLatch(0);
        try (ScriptedUpstream up = upstream(open);
             RunningShaper shaper = RunningShaper.start("-metrics-bind", "127.0.0.1:0", "-upstream", up.url(),
                     "-client-id", "header:x-team");
             RunningShaper off = RunningShaper.start("-metrics-bind", "127.0.0.1:0", "-upstream", up.url(),
                     "-client-id", "header:x-team", "-client-metrics=false")) {
            for (int i = 0; i < 40; i++) {
                assertEquals(200, send(shaper, "c" + i, "x").get(20, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(200, send(off, "alice", "x").get(20, TimeUnit.SECONDS).statusCode());
            RunningShaper.await("all recorded", BOUND, () -> shaper.server().journal("default").recent().size() == 40
                    && off.server().journal("default").recent().size() == 1);
            Scrape s = Scrape.of(shaper);
            assertEquals(1, s.value("shaper_client_requests_total", "provider", "default", "client", "c31", "status", "2xx"));
            assertEquals(8, s.value("shaper_client_requests_total", "provider", "default", "client", "other", "status", "2xx"));
            assertFalse(s.samples.keySet().stream().anyMatch(k -> k.contains("c32")), "the 33rd client has no label of its own");
            Scrape without = Scrape.of(off);
            assertTrue(without.samples.keySet().stream().noneMatch(k -> k.startsWith("shaper_client_requests_total")),
                    without.samples.keySet().toString());
        }
    }
}
