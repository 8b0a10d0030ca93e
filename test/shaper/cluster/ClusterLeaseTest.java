package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.cluster.ClusterQueueTest.pair;
import static shaper.cluster.ClusterQueueTest.waiters;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A stream that outlives several lease periods keeps its permit: its instance renews it, so a
 * request queued on another instance reaches the upstream only after the stream has ended.
 */
// Waits on wall time on purpose: a lease expires on Redis's own clock, which no test clock can move.
class ClusterLeaseTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final int EVENTS = 16;
    private static final long EVENT_GAP_MS = 250; // 16 x 250 ms = 4 s, four leases of 1 s

    @Test
    void aStreamOutlivingSeveralLeasesKeepsItsPermit() throws Exception {
        AtomicLong streamEnded = new AtomicLong();
        AtomicLong secondArrived = new AtomicLong();
        try (RedisProcess redis = RedisProcess.startFresh();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.target().equals("/v1/stream")) {
                     ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                     for (int i = 0; i < EVENTS; i++) {
                         ex.chunk("data: " + i + "\n\n");
                         Thread.sleep(EVENT_GAP_MS);
                     }
                     streamEnded.set(System.nanoTime());
                     ex.endChunks();
                     return;
                 }
                 secondArrived.set(System.nanoTime());
                 ex.respond(200, "second", "Content-Type: text/plain");
             })) {
            RunningShaper[] s = pair(redis, "lease", up, "-limiter-lease", "1s", "-queue-timeout", "60s");
            try {
                var stream = Clients.getAsync(s[0].uri("/v1/stream"));
                RunningShaper.await("stream admitted", BOUND, () -> up.inFlight() == 1);
                var second = Clients.getAsync(s[1].uri("/v1/second"));
                RunningShaper.await("second queued on the other instance", BOUND, () -> waiters(s[1]) == 1);
                HttpResponse<String> streamed = stream.get(30, TimeUnit.SECONDS);
                assertEquals(200, streamed.statusCode());
                assertTrue(streamed.body().contains("data: " + (EVENTS - 1)), streamed.body());
                assertEquals(200, second.get(30, TimeUnit.SECONDS).statusCode());
                assertTrue(secondArrived.get() - streamEnded.get() > 0,
                        "the queued request reached the upstream while the 4 s stream (lease 1 s) still held the only permit");
                assertEquals(1, up.peakInFlight());
            } finally {
                s[0].close();
                s[1].close();
            }
        }
    }
}
