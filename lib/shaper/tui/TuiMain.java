package shaper.tui;

import java.io.PrintStream;
import java.time.Clock;
import java.util.function.BiFunction;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import shaper.server.ShaperServer;
import shaper.settings.ShaperConfig;
import shaper.signal.Signals;

/**
 * Runs the proxy under the dashboard ({@code -tui}):
 * <ol>
 *   <li>open the terminal, or fail with exit 1 when stdout is not one (nothing has started yet);</li>
 *   <li>point stdout, stderr and java.util.logging at the Logs tab's ring;</li>
 *   <li>start the proxy (a startup failure is printed on the real stderr, exit 1);</li>
 *   <li>draw until {@code q}, Ctrl+C or SIGTERM, which stop the proxy gracefully ({@code -shutdown-grace})
 *       while the screen shows the drain (a second one cuts it); then restore the terminal: exit 0.</li>
 * </ol>
 */
public final class TuiMain {
    private TuiMain() {
    }

    /** Starts the proxy under the dashboard. */
    @FunctionalInterface
    public interface Starter {
        /**
         * @param out    stdout while the dashboard runs (the Logs tab)
         * @param err    stderr while the dashboard runs (the Logs tab)
         * @param toasts the dashboard's toast stack: {@link Toasts#post} from any thread (reload results)
         * @return the started proxy, or null after printing why it cannot start
         */
        ShaperServer start(PrintStream out, PrintStream err, Toasts toasts);
    }

    /** {@link #run(ShaperConfig, PrintStream, Starter, String)} for a starter that posts no toasts. */
    public static int run(ShaperConfig config, PrintStream err, BiFunction<PrintStream, PrintStream, ShaperServer> starter,
                          String program) {
        return run(config, err, (Starter) (out, e, toasts) -> starter.apply(out, e), program);
    }

    /**
     * @param starter starts the proxy with the given stdout and stderr, or prints why it cannot (on
     *                the stream it was built with) and returns null
     * @param err     the real stderr, for messages that must outlive the dashboard
     */
    public static int run(ShaperConfig config, PrintStream err, Starter starter, String program) {
        TuiTerminal terminal;
        try {
            terminal = TuiTerminal.open();
        } catch (TuiTerminal.Unavailable e) {
            err.println(program + ": -tui needs a terminal: " + e.getMessage()
                    + " (run without -tui to log to stdout)");
            return 1;
        }
        LogRing ring = new LogRing();
        PrintStream captured = LineCapture.printStream(ring);
        PrintStream realOut = System.out;
        PrintStream realErr = System.err;
        System.setOut(captured);
        System.setErr(captured);
        Handler julToRing = julHandler(captured);
        Logger root = Logger.getLogger("");
        Handler[] previous = root.getHandlers();
        for (Handler h : previous) {
            root.removeHandler(h);
        }
        root.addHandler(julToRing);
        Toasts toasts = new Toasts(Clock.systemUTC());
        ShaperServer server = starter.start(captured, err, toasts);
        if (server == null) {
            System.setOut(realOut);
            System.setErr(realErr);
            terminal.close();
            return 1;
        }
        Dashboard dashboard = new Dashboard(terminal, new ServerFrames(server, config, ring, Clock.systemUTC(), toasts),
                Clock.systemUTC(), ProxyStop.of(server, config.server().shutdownGrace()), toasts);
        try {
            // SIGTERM stops as q does: gracefully, with the screen showing the drain
            Signals.handle("TERM", dashboard::quit);
        } catch (IllegalStateException e) {
            ring.add(program + ": " + e.getMessage() + "; SIGTERM restores the terminal and cuts in-flight exchanges");
        }
        // any other way the JVM ends (SIGHUP when the terminal goes away) still restores and stops
        Thread hook = new Thread(() -> {
            terminal.restore();
            server.stop();
        }, "shaper-tui-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            dashboard.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook restores and stops too, both are idempotent
            }
            terminal.close();
            System.setOut(realOut);
            System.setErr(realErr);
            server.stop(); // already stopped after a quit; cuts everything when the loop ended otherwise
            root.removeHandler(julToRing);
            for (Handler h : previous) {
                root.addHandler(h);
            }
        }
        return 0;
    }

    /** java.util.logging records as lines in the ring (Helidon logs warnings this way). */
    private static Handler julHandler(PrintStream captured) {
        SimpleFormatter formatter = new SimpleFormatter();
        return new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (isLoggable(record)) {
                    captured.print(formatter.format(record));
                }
            }

            @Override
            public void flush() {
                captured.flush();
            }

            @Override
            public void close() {
                flush();
            }
        };
    }
}
