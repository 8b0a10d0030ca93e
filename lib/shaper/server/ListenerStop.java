package shaper.server;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import io.helidon.webserver.WebServer;
import shaper.proxy.StopCut;

/**
 * Stops the Helidon listener within a grace: Helidon stops accepting at once and waits for the
 * handlers in flight; past the grace (or once {@code cutNow} is counted down) the proxy marks what
 * breaks from then on as its own cut and interrupts Helidon's wait, which interrupts the handlers.
 *
 * <pre>
 * stop() ──▶ [grace: handlers finish] ──grace over / cut now──▶ StopCut.begin() ─▶ interrupt until stopped
 * </pre>
 */
final class ListenerStop {
    private static final Duration POLL = Duration.ofMillis(50);

    private ListenerStop() {
    }

    /**
     * @param cutNow counted down to end the grace sooner; an interrupt of the calling thread counts it down too
     */
    static void stop(WebServer server, Duration grace, CountDownLatch cutNow, StopCut cut) {
        Thread stopper = Thread.ofPlatform().name("shaper-stop").start(() -> stopListener(server));
        long deadline = System.nanoTime() + grace.toNanos();
        while (stopper.isAlive() && cutNow.getCount() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            join(stopper, Duration.ofNanos(Math.min(left, POLL.toNanos())), cutNow);
        }
        if (stopper.isAlive()) {
            cut.begin(); // what breaks from now on is the proxy's own cut
        }
        while (stopper.isAlive()) {
            // past the grace: Helidon interrupts the handlers still running when its wait is interrupted
            stopper.interrupt();
            join(stopper, POLL, cutNow);
        }
    }

    private static void stopListener(WebServer server) {
        while (server.isRunning()) {
            try {
                server.stop();
            } catch (IllegalStateException interruptedBeforeStopping) {
                Thread.interrupted(); // the cut came before Helidon began: stop again, now without waiting
            }
        }
    }

    /** An interrupt of the stopping thread counts as a request to cut now. */
    private static void join(Thread t, Duration d, CountDownLatch cutNow) {
        try {
            t.join(d);
        } catch (InterruptedException e) {
            cutNow.countDown();
        }
    }
}
