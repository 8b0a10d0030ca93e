package shaper.reload;

import java.util.Objects;
import java.util.function.Consumer;

import shaper.config.FlagException;
import shaper.settings.ShaperConfig;

/**
 * Reloads the configuration: its {@link ConfigSource} is read again (for {@code -config}: the command line the
 * proxy started with, with the file as it is now), validated whole and prepared by the {@link ReloadTarget};
 * only then is it swapped in. A failure anywhere before the swap keeps the running configuration and
 * logs one line naming the cause (with file:line:column when the file is at fault). Reloads run one
 * at a time.
 */
public final class Reloader {
    /** How the line of an applied reload begins (a refused one begins otherwise). */
    public static final String APPLIED = "config reloaded";

    private final ConfigSource source;
    private final ReloadTarget target;
    private final Consumer<String> log;
    private final ReloadStatus status;
    private ShaperConfig running;

    /**
     * @param source  where each reload reads the configuration to run
     * @param running the configuration the proxy started with
     * @param status  counters and generation, shared with metrics and health
     * @param log     takes the one line per reload (the server's log: stdout, or the dashboard's Logs tab)
     */
    public Reloader(ConfigSource source, ShaperConfig running, ReloadStatus status, ReloadTarget target, Consumer<String> log) {
        this.source = Objects.requireNonNull(source, "source");
        this.running = Objects.requireNonNull(running, "running");
        this.status = Objects.requireNonNull(status, "status");
        this.target = Objects.requireNonNull(target, "target");
        this.log = Objects.requireNonNull(log, "log");
    }

    public ReloadStatus status() {
        return status;
    }

    /** Reloads now; returns whether the new configuration was applied. */
    public synchronized boolean reload() {
        ConfigDiff diff;
        Runnable commit;
        ConfigSource.Reading read;
        try {
            read = source.read();
            diff = ConfigDiff.of(running, read.config());
            commit = target.prepare(diff);
        } catch (FlagException e) {
            status.rejected();
            line("config reload failed, running configuration kept: " + e.getMessage());
            return false;
        }
        commit.run();
        running = diff.applied();
        status.applied(read.fileHash());
        line(APPLIED + ": generation " + status.generation() + read.fileHash().map(h -> " (sha256 " + h + ")").orElse("")
                + ": " + diff.summary());
        return true;
    }

    private void line(String text) {
        log.accept(text);
    }
}
