package shaper.proxy;

import java.time.Duration;

import shaper.admission.ClientGoneException;
import shaper.proxy.watch.ClientConnection;

/**
 * Waits out one retry backoff. On a stream committed for the retry it writes a keepalive every
 * interval (between frames: nothing of the upstream has been forwarded yet); a client that leaves
 * ends the wait at once, so a retry is never sent for nobody.
 */
final class BackoffWait {
    private static final long SLICE_NANOS = Duration.ofMillis(100).toNanos();

    private BackoffWait() {
    }

    static void await(Duration delay, ClientSink sink, Duration keepalive, ClientConnection client)
            throws ClientGoneException, InterruptedException {
        long now = System.nanoTime();
        long end = now + delay.toNanos();
        long interval = keepalive.toNanos();
        long nextKeepalive = sink.state() instanceof ClientSink.CommittedStream && interval > 0 ? now + interval : Long.MAX_VALUE;
        while (now < end) {
            long until = Math.min(end, Math.min(nextKeepalive, now + SLICE_NANOS));
            Thread.sleep(Duration.ofNanos(Math.max(0, until - now)));
            if (!client.isOpen()) {
                throw new ClientGoneException("client left during retry backoff");
            }
            now = System.nanoTime();
            if (now >= nextKeepalive && now < end) {
                sink.keepalive();
                nextKeepalive += interval;
            }
        }
    }
}
