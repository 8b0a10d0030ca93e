package shaper.reload;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import shaper.testing.ScriptedUpstream;

/**
 * An upstream that answers every request with an SSE stream: a first event at once, then, when the
 * test lets it go, a last event and the end of the body. Counts the streams it holds open.
 */
final class StreamingUpstream implements AutoCloseable {
    private final Semaphore gate = new Semaphore(0);
    private final AtomicInteger open = new AtomicInteger();
    final ScriptedUpstream upstream;

    StreamingUpstream(String tag) {
        this.upstream = ScriptedUpstream.start((request, exchange) -> {
            exchange.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
            exchange.chunk("data: first " + tag + "\n\n");
            open.incrementAndGet();
            try {
                if (!gate.tryAcquire(90, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never ended this stream");
                }
            } finally {
                open.decrementAndGet();
            }
            exchange.chunk("data: last " + tag + "\n\n");
            exchange.endChunks();
        });
    }

    /** Streams that sent their first event and wait to end. */
    int open() {
        return open.get();
    }

    void end(int n) {
        gate.release(n);
    }

    String url() {
        return upstream.url();
    }

    /** The whole body one stream sends. */
    static String body(String tag) {
        return "data: first " + tag + "\n\ndata: last " + tag + "\n\n";
    }

    @Override
    public void close() {
        gate.release(1_000);
        upstream.close();
    }
}
