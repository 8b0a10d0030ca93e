package shaper.tui;

import java.time.Duration;

import shaper.config.GoDuration;
import shaper.server.ShaperServer;

/**
 * How the dashboard stops the proxy when the operator quits: the first {@code q} (or Ctrl+C, or
 * SIGTERM) starts the server's graceful stop in the background, so the screen keeps showing the
 * exchanges draining; a second one cuts what is left; the dashboard exits once the stop is done.
 */
interface ProxyStop {
    /** Starts the graceful stop; called once. */
    void begin();

    /** Cuts the exchanges still running. */
    void cut();

    /** Whether the proxy has stopped. */
    boolean done();

    /** The footer note while stopping. */
    String note();

    /**
     * The footer note while stopping; {@code retrying} exchanges are counted apart, since one under
     * {@code -retry -1} would hold the stop for the whole grace without looking any different.
     */
    static String note(Duration grace, int retrying) {
        String waiting = retrying == 0 ? "" : ", " + retrying + " of them retrying";
        return "stopping: in-flight exchanges have up to " + GoDuration.format(grace) + waiting + " (q again cuts them)";
    }

    /** The graceful stop of {@code server} ({@link ShaperServer#shutdown()}, bounded by {@code -shutdown-grace}). */
    static ProxyStop of(ShaperServer server, Duration grace) {
        return new ProxyStop() {
            private volatile Thread stopper;

            @Override
            public void begin() {
                stopper = Thread.ofPlatform().name("shaper-tui-stop").start(server::shutdown);
            }

            @Override
            public void cut() {
                server.cutNow();
            }

            @Override
            public boolean done() {
                Thread t = stopper;
                return t != null && !t.isAlive();
            }

            @Override
            public String note() {
                return ProxyStop.note(grace, server.providers().stream().mapToInt(p -> server.journal(p).retriesInFlight()).sum());
            }
        };
    }
}
