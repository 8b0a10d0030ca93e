package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code /__probe/stats} and {@code /__probe/reset}: what tests use to assert what the upstream saw. */
class ProbeStatsTest {
    @Test
    void statsListEveryPrefixWithZerosBeforeAnyRequest() {
        try (RunningProbe probe = RunningProbe.start()) {
            JsonNode stats = probe.stats();
            assertEquals(0, stats.path("hits").size());
            assertEquals(Fixture.values().length, stats.path("prefixes").size());
            for (Fixture f : Fixture.values()) {
                JsonNode p = stats.path("prefixes").path(f.prefix());
                assertEquals(0, p.path("hits").asLong(), f.prefix());
                assertEquals(0, p.path("inFlight").asInt(), f.prefix());
                assertEquals(0, p.path("peakInFlight").asInt(), f.prefix());
            }
        }
    }

    @Test
    void inFlightAndPeakTrackConcurrentRequestsPerPrefix() throws Exception {
        GatedSleeper gate = new GatedSleeper();
        try (RunningProbe probe = RunningProbe.start(gate)) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                HttpRequest req = HttpRequest.newBuilder(probe.uri("/slow/" + i)).timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
                calls.add(probe.client().sendAsync(req, HttpResponse.BodyHandlers.ofString()));
            }
            gate.awaitWaiting(3);
            JsonNode during = probe.stats().path("prefixes").path("/slow");
            assertEquals(3, during.path("inFlight").asInt());
            assertEquals(3, during.path("peakInFlight").asInt());
            gate.open();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertEquals(200, c.get(10, TimeUnit.SECONDS).statusCode());
            }
            RunningProbe.await("in-flight back to 0",
                    () -> probe.server().stats().snapshot().prefix(Fixture.SLOW).inFlight() == 0);
            JsonNode after = probe.stats().path("prefixes").path("/slow");
            assertEquals(3, after.path("peakInFlight").asInt());
            assertEquals(3, after.path("hits").asLong());
            assertEquals(0, probe.stats().path("prefixes").path("/ok").path("peakInFlight").asInt());
        }
    }

    @Test
    void resetStartsEveryPathOver() {
        try (RunningProbe probe = RunningProbe.start()) {
            probe.post("/flaky422/x", "{}");
            probe.post("/flaky422/x", "{}");
            assertEquals(200, probe.post("/flaky422/x", "{}").statusCode());
            HttpResponse<String> reset = probe.send(HttpRequest.newBuilder(probe.uri("/__probe/reset"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build());
            assertEquals(200, reset.statusCode());
            JsonNode stats = probe.stats();
            assertEquals(0, stats.path("hits").size());
            assertEquals(0, stats.path("prefixes").path("/flaky422").path("hits").asLong());
            assertEquals(0, stats.path("prefixes").path("/flaky422").path("peakInFlight").asInt());
            assertEquals(422, probe.post("/flaky422/x", "{}").statusCode(), "failures start over after reset");
        }
    }

    @Test
    void probeRoutesCheckTheMethodAndAreNotCounted() {
        try (RunningProbe probe = RunningProbe.start()) {
            HttpResponse<String> getReset = probe.get("/__probe/reset");
            assertEquals(405, getReset.statusCode());
            assertEquals("POST", getReset.headers().firstValue("allow").orElseThrow());
            assertEquals(405, probe.post("/__probe/stats", "").statusCode());
            assertEquals(404, probe.get("/__probe/other").statusCode());
            assertEquals(0, probe.stats().path("hits").size());
        }
    }

    @Test
    void headIsAReachabilityCheckThatIsNotCounted() {
        try (RunningProbe probe = RunningProbe.start()) {
            for (String path : new String[] {"/slowsse", "/retry429", "/flakyconn/v1/messages"}) {
                HttpResponse<String> r = probe.send(HttpRequest.newBuilder(probe.uri(path))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
                assertEquals(200, r.statusCode(), path);
                assertEquals("", r.body(), path);
            }
            assertEquals(0, probe.stats().path("hits").size());
            assertEquals(429, probe.post("/retry429", "{}").statusCode(), "the HEAD did not use up a failure");
        }
    }
}
