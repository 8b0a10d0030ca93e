package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/** /capacity: N at once, 429 or 529 above, first byte slower near N, N moved at run time. */
class ProbeCapacityTest {
    private static final String BODY = "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static List<CompletableFuture<HttpResponse<String>>> fire(RunningProbe probe, int n) {
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(CompletableFuture.supplyAsync(() -> probe.post("/capacity/v1/messages", BODY)));
        }
        return all;
    }

    @Test
    void aboveItsCapacityItRefusesAtOnceAndServesTheRest() throws Exception {
        GatedSleeper gate = new GatedSleeper();
        try (RunningProbe probe = RunningProbe.start(gate, "-capacity", "2")) {
            var admitted = fire(probe, 2);
            gate.awaitWaiting(2);
            HttpResponse<String> refused = probe.post("/capacity/v1/messages", BODY);
            assertEquals(429, refused.statusCode());
            assertEquals("1", refused.headers().firstValue("retry-after").orElse(""));
            assertTrue(refused.body().contains("rate_limit_error"), refused.body());
            assertEquals("{\"capacity\":2,\"inFlight\":2}", probe.get("/__probe/capacity").body());
            gate.open();
            for (var f : admitted) {
                assertEquals(200, f.get().statusCode());
            }
        }
    }

    @Test
    void itCanAnswer529Instead() throws Exception {
        GatedSleeper gate = new GatedSleeper();
        try (RunningProbe probe = RunningProbe.start(gate, "-capacity", "1", "-capacity-status", "529")) {
            var admitted = fire(probe, 1);
            gate.awaitWaiting(1);
            HttpResponse<String> refused = probe.post("/capacity/x", BODY);
            assertEquals(529, refused.statusCode());
            assertTrue(refused.body().contains("overloaded_error"), refused.body());
            gate.open();
            assertEquals(200, admitted.getFirst().get().statusCode());
        }
    }

    @Test
    void theCapacityMovesAtRunTime() throws Exception {
        GatedSleeper gate = new GatedSleeper();
        try (RunningProbe probe = RunningProbe.start(gate, "-capacity", "1")) {
            assertEquals("{\"capacity\":3,\"inFlight\":0}", probe.post("/__probe/capacity?n=3", "").body());
            var admitted = fire(probe, 3);
            gate.awaitWaiting(3);
            assertEquals(429, probe.post("/capacity/v1/messages", BODY).statusCode());
            assertEquals(400, probe.post("/__probe/capacity?n=0", "").statusCode());
            assertEquals(400, probe.post("/__probe/capacity?n=x", "").statusCode());
            gate.open();
            for (var f : admitted) {
                assertEquals(200, f.get().statusCode());
            }
        }
    }

    @Test
    void theFirstByteSlowsInTheLastTwoSlots() {
        Duration base = Duration.ofMillis(100);
        assertEquals(base, CapacityFixture.firstByteDelay(1, 6, base));
        assertEquals(base, CapacityFixture.firstByteDelay(4, 6, base));
        assertEquals(Duration.ofMillis(150), CapacityFixture.firstByteDelay(5, 6, base));
        assertEquals(Duration.ofMillis(250), CapacityFixture.firstByteDelay(6, 6, base));
        assertEquals(Duration.ofMillis(250), CapacityFixture.firstByteDelay(1, 1, base));
    }

    @Test
    void theDelayIsTheConfiguredLatency() {
        RecordingSleeper sleeps = new RecordingSleeper();
        try (RunningProbe probe = RunningProbe.start(sleeps, "-capacity", "8", "-capacity-latency", "40ms")) {
            assertEquals(200, probe.post("/capacity/v1/messages", BODY).statusCode());
        }
        assertEquals(List.of(Duration.ofMillis(40)), sleeps.waits());
    }
}
