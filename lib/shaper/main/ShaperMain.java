package shaper.main;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import shaper.Version;
import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;
import shaper.cli.UsageException;
import shaper.config.ConfigException;
import shaper.configfile.ConfigLoader;
import shaper.reload.Reloader;
import shaper.server.ShaperServer;
import shaper.signal.Signals;
import shaper.tui.Toasts;
import shaper.tui.TuiMain;

/**
 * The proxy's entry point behind {@code Shaper.java}: parse, validate, start, and block until
 * the JVM is asked to stop. Returns the process exit code: 0, 1 for a semantic error, 2 for a usage error.
 */
public final class ShaperMain {
    private ShaperMain() {
    }

    /** Standard output without a flush per line: the log writer flushes when it has caught up. */
    public static PrintStream bufferedStdout() {
        return new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024), false,
                StandardCharsets.UTF_8);
    }

    public static int run(String[] argv, PrintStream out, PrintStream err) {
        Invocation invocation;
        ConfigLoader.Loaded loaded;
        try {
            loaded = ConfigLoader.load(List.of(argv));
            invocation = loaded.invocation();
        } catch (UsageException e) {
            err.println(CommandLineParser.PROGRAM + ": " + e.getMessage());
            err.println("Run '" + CommandLineParser.HELP_COMMAND + "' for the flag reference.");
            return 2;
        } catch (ConfigException e) {
            err.println(CommandLineParser.PROGRAM + ": " + e.getMessage());
            return 1;
        }
        return switch (invocation) {
            case Invocation.Help help -> {
                out.print(help.text());
                out.flush();
                yield 0;
            }
            case Invocation.PrintConfig print -> {
                out.print(print.yaml());
                out.flush();
                yield 0;
            }
            case Invocation.ShowVersion v -> {
                out.println(Version.SERVICE + " " + Version.VERSION);
                out.flush();
                yield 0;
            }
            case Invocation.Run run -> serve(List.of(argv), run, loaded.fileHash(), out, err);
        };
    }

    private static int serve(List<String> argv, Invocation.Run run, Optional<String> fileHash, PrintStream out, PrintStream err) {
        if (run.config().server().tui()) {
            return TuiMain.run(run.config(), err, (TuiMain.Starter) (o, e, toasts) -> {
                ShaperServer s = start(run, o, e, err);
                if (s != null) {
                    s.checkUpstreams();
                    LiveReload.install(argv, run, fileHash, s, e, line -> toasts.post(
                            line.startsWith(Reloader.APPLIED) ? Toasts.Kind.OK : Toasts.Kind.ERROR, line));
                }
                return s;
            }, CommandLineParser.PROGRAM);
        }
        ShaperServer server = start(run, out, err, err);
        if (server == null) {
            return 1;
        }
        server.checkUpstreams();
        LiveReload.install(argv, run, fileHash, server, err);
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "shaper-shutdown"));
        GracefulStop stop = new GracefulStop(server, run.config().server().shutdownGrace(), err);
        try {
            Signals.handle("TERM", stop::requested);
            Signals.handle("INT", stop::requested);
        } catch (IllegalStateException e) {
            err.println(CommandLineParser.PROGRAM + ": " + e.getMessage() + "; a stop signal cuts in-flight streams");
        }
        server.awaitStop();
        return 0;
    }

    /** Starts the proxy logging to {@code out} and {@code err}; on failure prints why on {@code failures} and returns null. */
    private static ShaperServer start(Invocation.Run run, PrintStream out, PrintStream err, PrintStream failures) {
        try {
            return ShaperServer.start(run.config(), out, err);
        } catch (ConfigException e) {
            failures.println(CommandLineParser.PROGRAM + ": " + e.getMessage());
        } catch (RuntimeException e) {
            failures.println(CommandLineParser.PROGRAM + ": cannot listen on " + run.config().server().bind() + ": " + e.getMessage());
        }
        failures.flush();
        return null;
    }
}
