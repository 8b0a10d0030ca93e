package shaper.reload;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import shaper.testing.ScriptedUpstream;

/**
 * An upstream that holds every request until the test lets it go, counting how many it holds at
 * once: the concurrency the proxy lets through, seen from the upstream's side.
 */
final class GatedUpstream implements AutoCloseable {
    private final Semaphore gate = new Semaphore(0);
    private final AtomicInteger holding = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    final ScriptedUpstream upstream;

    GatedUpstream(String body) {
        this.upstream = ScriptedUpstream.start((request, exchange) -> {
            int now = holding.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
            try {
                if (!gate.tryAcquire(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released this request");
                }
            } finally {
                holding.decrementAndGet();
            }
            exchange.respond(200, body);
        });
    }

    int holding() {
        return holding.get();
    }

    /** The most held at once since the last {@link #resetPeak}. */
    int peak() {
        return peak.get();
    }

    void resetPeak() {
        peak.set(holding.get());
    }

    void release(int n) {
        gate.release(n);
    }

    String url() {
        return upstream.url();
    }

    @Override
    public void close() {
        gate.release(1_000);
        upstream.close();
    }
}
