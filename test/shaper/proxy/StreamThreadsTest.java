package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Event streams are relayed on the server's platform threads (one kernel wake-up per event instead
 * of the poller's chain), other bodies stay on their virtual thread, and a cut of the waiting
 * request thread still closes the socket the relay is blocked on.
 */
class StreamThreadsTest {

    @Test
    void anEventStreamIsRelayedOnAStreamThreadAndAJsonBodyIsNot() throws Exception {
        CountDownLatch checked = new CountDownLatch(2);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                boolean sse = req.target().startsWith("/sse");
                ex.head(200, "Content-Type: " + (sse ? "text/event-stream" : "application/json"), "Transfer-Encoding: chunked");
                ex.chunk(sse ? "data: {\"n\":0}\n\n" : "{\"n\":");
                checked.await(5, TimeUnit.SECONDS); // hold the body open while the test looks at the proxy's threads
                ex.chunk(sse ? "data: {\"n\":1}\n\n" : "1}");
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            assertTrue(relayedOnStreamThread(shaper, "/sse/v1/messages", checked), "an event stream is relayed by a shaper-stream thread");
            assertFalse(relayedOnStreamThread(shaper, "/json/v1/messages", checked), "a JSON body stays on its request thread");
        }
    }

    /** Sends one request, reads its first body chunk, then reports whether a stream thread is relaying it. */
    private static boolean relayedOnStreamThread(RunningShaper shaper, String path, CountDownLatch checked) throws IOException {
        try (RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
            assertEquals(200, raw.readHead().status());
            assertTrue(raw.readChunk() != null, "the first chunk arrives while the upstream holds the rest");
            boolean relaying = Thread.getAllStackTraces().entrySet().stream()
                    .anyMatch(t -> t.getKey().getName().startsWith("shaper-stream-") && Arrays.stream(t.getValue())
                            .anyMatch(f -> f.getClassName().equals(ResponseRelay.class.getName())));
            checked.countDown();
            while (raw.readChunk() != null) {
                // drain to the terminating chunk
            }
            return relaying;
        }
    }

    @Test
    void aCutOfTheWaitingThreadClosesTheChannelTheRelayIsBlockedOn() throws Exception {
        try (StreamThreads streams = new StreamThreads(1);
             ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel silent = SocketChannel.open(listener.getLocalAddress());
             SocketChannel peer = listener.accept()) {
            CountDownLatch reading = new CountDownLatch(1);
            CompletableFuture<Throwable> failure = new CompletableFuture<>();
            AtomicBoolean interruptedAfter = new AtomicBoolean();
            Thread request = Thread.ofVirtual().start(() -> {
                try {
                    streams.relay(() -> {
                        reading.countDown();
                        try {
                            return silent.read(ByteBuffer.allocate(16)); // the peer never writes
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                    failure.complete(null);
                } catch (RuntimeException e) {
                    failure.complete(e);
                }
                interruptedAfter.set(Thread.currentThread().isInterrupted());
            });
            assertTrue(reading.await(5, TimeUnit.SECONDS), "the relay started");
            request.interrupt();
            Throwable thrown = failure.get(5, TimeUnit.SECONDS);
            assertInstanceOf(UncheckedIOException.class, thrown, "the relay's own failure reaches the request thread");
            assertInstanceOf(ClosedByInterruptException.class, thrown.getCause());
            assertFalse(silent.isOpen(), "the blocked channel was closed, as a virtual thread's would be");
            assertTrue(request.join(Duration.ofSeconds(5)));
            assertTrue(interruptedAfter.get(), "the request thread gets its interrupt status back");

            // the stream thread carries no leftover interrupt into the next relay
            try (SocketChannel next = SocketChannel.open(listener.getLocalAddress()); SocketChannel nextPeer = listener.accept()) {
                nextPeer.write(ByteBuffer.wrap(new byte[] {7, 7}));
                CompletableFuture<Integer> read = new CompletableFuture<>();
                Thread.ofVirtual().start(() -> read.complete(streams.relay(() -> {
                    try {
                        return next.read(ByteBuffer.allocate(16));
                    } catch (IOException e) {
                        return -2;
                    }
                })));
                assertEquals(2, read.get(5, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void pastItsLimitAStreamIsRelayedOnItsOwnThread() throws Exception {
        try (StreamThreads streams = new StreamThreads(1)) {
            CountDownLatch firstRunning = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Boolean> firstVirtual = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> firstVirtual.complete(streams.relay(() -> {
                firstRunning.countDown();
                awaitQuietly(release);
                return Thread.currentThread().isVirtual();
            })));
            assertTrue(firstRunning.await(5, TimeUnit.SECONDS));
            assertEquals(1, streams.active());
            CompletableFuture<Boolean> secondVirtual = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> secondVirtual.complete(streams.relay(() -> Thread.currentThread().isVirtual())));
            assertTrue(secondVirtual.get(5, TimeUnit.SECONDS), "the second stream ran on its own virtual thread");
            release.countDown();
            assertFalse(firstVirtual.get(5, TimeUnit.SECONDS), "the first stream ran on a platform thread");
            RunningShaper.await("the stream thread given back", Duration.ofSeconds(5), () -> streams.active() == 0);
        }
    }

    @Test
    void whenNoThreadCanBeStartedTheStreamStaysOnItsOwnThreadAndTheSlotComesBack() throws Exception {
        try (StreamThreads streams = new StreamThreads(1, r -> {
            throw new OutOfMemoryError("unable to create native thread");
        })) {
            for (int i = 0; i < 2; i++) {
                CompletableFuture<Boolean> ranVirtual = new CompletableFuture<>();
                Thread.ofVirtual().start(() -> ranVirtual.complete(streams.relay(() -> Thread.currentThread().isVirtual())));
                assertTrue(ranVirtual.get(5, TimeUnit.SECONDS), "the relay ran on the request's own thread");
                assertEquals(0, streams.active(), "no slot held by a relay that never got a thread");
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
