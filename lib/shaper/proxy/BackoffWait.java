package shaper.proxy;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import shaper.admission.ClientGoneException;
import shaper.limit.TimeSource;
import shaper.proxy.watch.ClientConnection;

/**
 * Waits out one retry backoff on the provider's clock. On a stream committed for the retry it writes
 * a keepalive every interval (between frames: nothing of the upstream has been forwarded yet); a
 * client that leaves ends the wait at once, so a retry is never sent for nobody.
 *
 * <p>The backoff and the keepalives are timer tasks of the {@link TimeSource}, so a test that moves
 * the clock ends the wait; the client's socket is looked at every {@value #SLICE_MILLIS} ms of real
 * time whatever the clock does, since a departure is a fact of the socket, not of the proxy's clock.
 */
final class BackoffWait {
    private static final long SLICE_MILLIS = 100;

    private BackoffWait() {
    }

    static void await(Duration delay, ClientSink sink, Duration keepalive, ClientConnection client, TimeSource time)
            throws ClientGoneException, InterruptedException {
        long now = time.nanoTime();
        long end = now + delay.toNanos();
        long interval = keepalive.toNanos();
        long nextKeepalive = sink.state() instanceof ClientSink.CommittedStream && interval > 0 ? now + interval : Long.MAX_VALUE;
        Semaphore rang = new Semaphore(0);
        while (now < end) {
            long until = Math.min(end, nextKeepalive);
            TimeSource.Cancellable alarm = time.schedule(Duration.ofNanos(until - now), rang::release);
            try {
                while (!rang.tryAcquire(SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
                    requireOpen(client);
                }
            } finally {
                alarm.cancel();
            }
            requireOpen(client);
            now = time.nanoTime();
            if (now >= nextKeepalive && now < end) {
                sink.keepalive();
                nextKeepalive += interval;
            }
        }
    }

    private static void requireOpen(ClientConnection client) throws ClientGoneException {
        if (!client.isOpen()) {
            throw new ClientGoneException("client left during retry backoff");
        }
    }
}
