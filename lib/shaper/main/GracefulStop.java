package shaper.main;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import shaper.cli.CommandLineParser;
import shaper.config.GoDuration;
import shaper.server.ShaperServer;

/**
 * What a stop signal does: the first starts a graceful stop ({@link ShaperServer#shutdown()}) on its
 * own thread, so the signal thread returns at once; a second one cuts what is still in flight.
 * The process then exits 0 from the main thread, which was waiting for the stop.
 */
final class GracefulStop {
    private final ShaperServer server;
    private final Duration grace;
    private final PrintStream err;
    private final AtomicInteger signals = new AtomicInteger();

    GracefulStop(ShaperServer server, Duration grace, PrintStream err) {
        this.server = server;
        this.grace = grace;
        this.err = err;
    }

    void requested() {
        if (signals.incrementAndGet() == 1) {
            err.println(CommandLineParser.PROGRAM + ": stopping: no new connections; in-flight exchanges have up to "
                    + GoDuration.format(grace) + " (-shutdown-grace; interrupt again to cut them now)");
            err.flush();
            Thread.ofPlatform().name("shaper-graceful-stop").start(server::shutdown);
        } else {
            err.println(CommandLineParser.PROGRAM + ": cutting in-flight exchanges");
            err.flush();
            server.cutNow();
        }
    }
}
