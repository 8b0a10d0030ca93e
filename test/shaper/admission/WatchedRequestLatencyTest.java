package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.admission.RouteLimitTest.waiters;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Watching a queued request's connection never delays its response: the stream ends as soon as the
 * upstream's does, and the next request on the same keep-alive connection is served at once.
 */
class WatchedRequestLatencyTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void queuedRequestsCompleteAndKeepAliveWithoutWaitingForTheWatch() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (req.target().contains("hold") && !gate.await(20, TimeUnit.SECONDS)) {
                    throw new java.io.IOException("gate");
                }
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk("data: done\n\n");
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0");
             RawHttp holder = new RawHttp(shaper.port());
             RawHttp queued = new RawHttp(shaper.port())) {
            holder.send("POST /hold HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
            RunningShaper.await("holder admitted", BOUND, () -> up.inFlight() == 1);
            queued.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
            RunningShaper.await("queued", BOUND, () -> waiters(shaper) == 1);
            gate.countDown();
            long start = System.nanoTime();
            assertEquals(200, queued.readHead().status());
            assertEquals("data: done\n\n", queued.readChunk());
            assertEquals(null, queued.readChunk(), "the stream ends with its terminating chunk");
            long endMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(endMs < 1_500, "the stream end must not wait for the watch, took " + endMs + " ms");
            queued.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
            assertEquals(200, queued.readHead().status(), "the same connection serves the next request");
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(elapsedMs < 1_500, "the watch must not delay anything, took " + elapsedMs + " ms");
        }
    }
}
