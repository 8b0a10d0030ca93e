package shaper.main;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;
import shaper.config.ConfigException;
import shaper.configfile.ConfigLoader;
import shaper.reload.ConfigSource;
import shaper.reload.FileWatch;
import shaper.reload.Reloader;
import shaper.server.ShaperServer;
import shaper.signal.Signals;

/**
 * Connects a running proxy to its {@code -config} file: a {@link Reloader} whose source is the command
 * line the proxy started with, read again with the file ({@link #source}), run on {@code SIGHUP} and, with {@code -config-watch}, when the file changes. Without a file,
 * {@code SIGHUP} only logs that there is nothing to reload (rather than stopping the proxy, the JVM's
 * default).
 */
public final class LiveReload implements AutoCloseable {
    private final Optional<FileWatch> watch;

    private LiveReload(Optional<FileWatch> watch) {
        this.watch = watch;
    }

    /** The reloader of {@code server}, started from {@code argv} as {@code run} describes it. */
    public static Reloader reloader(List<String> argv, Invocation.Run run, Optional<String> fileHash, ShaperServer server) {
        return reloader(argv, run, fileHash, server, line -> { });
    }

    /** The same, telling {@code notify} each reload's one line as well (the dashboard's toast). */
    static Reloader reloader(List<String> argv, Invocation.Run run, Optional<String> fileHash, ShaperServer server,
                             Consumer<String> notify) {
        server.live().status().startedFrom(fileHash);
        Consumer<String> log = server.log()::info;
        return new Reloader(source(argv), run.config(), server.live().status(), server.live(), log.andThen(notify));
    }

    /** {@code argv} with its {@code -config} file as they read now; a command line that no longer runs a proxy is refused. */
    static ConfigSource source(List<String> argv) {
        List<String> args = List.copyOf(argv);
        return () -> {
            ConfigLoader.Loaded loaded = ConfigLoader.load(args);
            if (!(loaded.invocation() instanceof Invocation.Run run)) {
                throw new ConfigException("the command line no longer describes a proxy to run");
            }
            return new ConfigSource.Reading(run.config(), loaded.fileHash());
        };
    }

    /** Installs the {@code SIGHUP} handler and, with {@code -config-watch}, the file watch. */
    static LiveReload install(List<String> argv, Invocation.Run run, Optional<String> fileHash, ShaperServer server, PrintStream log) {
        return install(argv, run, fileHash, server, log, line -> { });
    }

    /** @param notify told each reload's result line (the dashboard posts it as a toast) */
    static LiveReload install(List<String> argv, Invocation.Run run, Optional<String> fileHash, ShaperServer server, PrintStream log,
                              Consumer<String> notify) {
        if (run.configFile().isEmpty()) {
            handleHangup(() -> {
                log.println(CommandLineParser.PROGRAM + ": SIGHUP: no -config file to reload");
                log.flush();
            }, log);
            return new LiveReload(Optional.empty());
        }
        Reloader reloader = reloader(argv, run, fileHash, server, notify);
        // The signal thread returns at once; reloads serialise on the reloader.
        handleHangup(() -> Thread.ofPlatform().name("shaper-reload").start(reloader::reload), log);
        if (!run.watch()) {
            return new LiveReload(Optional.empty());
        }
        try {
            return new LiveReload(Optional.of(FileWatch.start(run.configFile().get(), reloader::reload, fileHash)));
        } catch (IOException e) {
            log.println(CommandLineParser.PROGRAM + ": -config-watch: cannot watch " + run.configFile().get() + " (" + e.getMessage()
                    + "); SIGHUP still reloads");
            return new LiveReload(Optional.empty());
        }
    }

    private static void handleHangup(Runnable action, PrintStream log) {
        try {
            Signals.handle("HUP", action);
        } catch (IllegalStateException e) {
            log.println(CommandLineParser.PROGRAM + ": " + e.getMessage() + "; reload with -config-watch only");
        }
    }

    @Override
    public void close() {
        watch.ifPresent(FileWatch::close);
    }
}
