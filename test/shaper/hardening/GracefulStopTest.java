package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.observe.EndReason;
import shaper.observe.ExchangeRecord;
import shaper.observe.Outcome;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A graceful stop lets in-flight streams finish, answers queued requests with the queue's own
 * failure, refuses new connections, and is bounded by its grace.
 */
class GracefulStopTest {
    private static final java.util.concurrent.Executor THREADS = r -> Thread.ofVirtual().start(r);
    private static final String STREAM = "POST /v1/messages HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
            + "Content-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"stream\":true}";

    @Test
    void inFlightStreamsFinishQueuedRequestsFailAndNewConnectionsAreRefused() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < 8; i++) {
                    ex.chunk("data: " + i + "\n\n");
                    Thread.sleep(150);
                }
                ex.chunk("data: done\n\n");
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "3")) {
            ConcurrentLinkedQueue<String> bodies = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<Void>> streams = java.util.stream.IntStream.range(0, 3).mapToObj(i -> CompletableFuture.runAsync(() -> {
                try (RawHttp raw = new RawHttp(shaper.port())) {
                    raw.send(STREAM);
                    raw.readHead();
                    StringBuilder b = new StringBuilder();
                    String chunk;
                    while ((chunk = raw.readChunk()) != null) {
                        b.append(chunk);
                    }
                    bodies.add(b.toString());
                } catch (IOException e) {
                    bodies.add("cut: " + e);
                }
            }, THREADS)).toList();
            RunningShaper.await("three streams in flight", Duration.ofSeconds(10), () -> up.inFlight() == 3);
            RawHttp queued = new RawHttp(shaper.port());
            queued.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            RunningShaper.await("one request queued", Duration.ofSeconds(10),
                    () -> shaper.server().limiters("default").stream().anyMatch(l -> l.waiters() == 1));

            long start = System.nanoTime();
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> shaper.server().shutdown(Duration.ofSeconds(30)), THREADS);
            assertEquals(504, queued.readHead().status(), "the queued request gets the queue's failure");
            queued.close();
            RunningShaper.await("new connections refused", Duration.ofSeconds(5), () -> {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), shaper.port())) {
                    return false;
                } catch (IOException refused) {
                    return true;
                }
            });
            stopping.get(20, TimeUnit.SECONDS);
            CompletableFuture.allOf(streams.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
            assertEquals(3, bodies.size());
            for (String b : bodies) {
                assertTrue(b.endsWith("data: done\n\n"), "stream finished: " + b);
            }
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(15)) < 0);
        }
    }

    @Test
    void graceBoundCutsStreamsThatOutliveIt() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < 1000; i++) {
                    ex.chunk("data: " + i + "\n\n");
                    Thread.sleep(100);
                }
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(STREAM);
                raw.readHead();
                raw.readChunk();
                long start = System.nanoTime();
                shaper.server().shutdown(Duration.ofMillis(500));
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertTrue(took.compareTo(Duration.ofMillis(400)) > 0 && took.compareTo(Duration.ofSeconds(5)) < 0,
                        "stop took " + took);
                assertThrows(IOException.class, () -> {
                    while (raw.readChunk() != null) {
                        // until the cut
                    }
                });
            }
            // the cut is the proxy's own, not the upstream's: recorded so, once
            RunningShaper.await("the cut stream recorded", Duration.ofSeconds(10),
                    () -> shaper.server().journal("default").recent().size() == 1);
            ExchangeRecord cut = shaper.server().journal("default").recent().getFirst();
            assertEquals(EndReason.PROXY_STOPPED, cut.reason(), cut.toString());
            assertEquals(Outcome.ABORTED, cut.outcome());
        }
    }
}
