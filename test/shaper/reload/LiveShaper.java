package shaper.reload;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import shaper.cli.Invocation;
import shaper.main.LiveReload;
import shaper.configfile.ConfigLoader;
import shaper.server.ShaperServer;

/**
 * The real proxy started in this JVM from {@code -config FILE}, as {@code Shaper.java} would start it,
 * with its real {@link Reloader}; a test rewrites the file and calls {@link #reload()} where a
 * {@code SIGHUP} would.
 */
final class LiveShaper implements AutoCloseable {
    final Path file;
    final ShaperServer server;
    final Reloader reloader;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** @param time the proxy's one clock, or null for the system clock */
    private LiveShaper(Path file, List<String> extra, shaper.limit.TimeSource time) {
        this.file = file;
        List<String> argv = new ArrayList<>(List.of("-config", file.toString(), "-bind", "127.0.0.1:0"));
        argv.addAll(extra);
        ConfigLoader.Loaded loaded = ConfigLoader.load(argv);
        Invocation.Run run = (Invocation.Run) loaded.invocation();
        PrintStream log = new PrintStream(out, true, StandardCharsets.UTF_8);
        this.server = time == null ? ShaperServer.start(run.config(), log, log) : ShaperServer.start(run.config(), log, log, System::getenv, time);
        this.reloader = LiveReload.reloader(argv, run, loaded.fileHash(), server);
    }

    static LiveShaper start(Path file, String yaml, String... extra) throws Exception {
        Files.writeString(file, yaml);
        return new LiveShaper(file, List.of(extra), null);
    }

    /** As {@link #start}, on {@code time}: breaker waits and holds move only when the test moves it. */
    static LiveShaper start(shaper.limit.TimeSource time, Path file, String yaml, String... extra) throws Exception {
        Files.writeString(file, yaml);
        return new LiveShaper(file, List.of(extra), time);
    }

    /** Rewrites the file (by rename, as editors save) and reloads; returns whether it was applied. */
    boolean reloadWith(String yaml) throws Exception {
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(next, yaml);
        Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return reloader.reload();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    /** Waits (bounded) until the log holds {@code text}: the server's log is written by its own thread. */
    void awaitLog(String text) {
        shaper.testing.RunningShaper.await("log line containing " + text, java.time.Duration.ofSeconds(20), () -> log().contains(text));
    }

    String log() {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
