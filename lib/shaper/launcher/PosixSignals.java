package shaper.launcher;

import java.io.IOException;
import java.io.PrintStream;

/**
 * Production wiring of SIGINT, SIGTERM and JVM shutdown to one launch.
 *
 * <p>The JVM's default reaction to SIGINT/SIGTERM is to exit, which would orphan Claude Code and
 * (for Ctrl+C) end the launcher while Claude Code merely cancelled a turn. Own handlers replace it;
 * the shutdown hook stays for every other way the JVM can end (SIGHUP, {@code System.exit}) and
 * for JVMs that refuse signal handlers ({@code -Xrs}).
 */
public final class PosixSignals implements LauncherMain.Signals {
    private final boolean hasTerminal;
    private final PrintStream err;

    private PosixSignals(boolean hasTerminal, PrintStream err) {
        this.hasTerminal = hasTerminal;
        this.err = err;
    }

    /**
     * Checks once whether the launcher has a controlling terminal: then a SIGINT is taken to be
     * Ctrl+C, which the terminal also delivered to Claude Code (a programmatic stop should use SIGTERM).
     */
    public static PosixSignals detect(PrintStream err) {
        return new PosixSignals(hasControllingTerminal(), err);
    }

    @Override
    public void install(ClaudeProcess claude, TempSettings temp) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                claude.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                temp.close();
            }
        }, "launcher-shutdown"));
        handle(StopSignal.TERM, s -> claude.signal(s, false));
        // On a terminal, Ctrl+C reached Claude Code too (same foreground process group); a SIGINT
        // from kill(1) to a launcher without a terminal reached only us and is passed on.
        handle(StopSignal.INT, s -> claude.signal(s, hasTerminal));
    }

    private void handle(StopSignal s, java.util.function.Consumer<StopSignal> action) {
        try {
            shaper.signal.Signals.handle(s.name(), () -> action.accept(s));
        } catch (IllegalStateException e) {
            err.println(LauncherMain.PREFIX + "cannot handle " + s.signalName() + " (" + e.getCause()
                    + "); it will end the launcher, which still stops Claude Code on the way out");
        }
    }

    /** Whether {@code /dev/tty} opens: POSIX's test for a controlling terminal, whatever stdin is. */
    private static boolean hasControllingTerminal() {
        try {
            Process p = new ProcessBuilder("sh", "-c", ": </dev/tty").redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
