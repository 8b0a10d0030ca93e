package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.ScriptedUpstream;

/**
 * A live reload's result is a toast on the dashboard: a valid edit of the {@code -config} file
 * (saved by rename, as editors do) shows "config reloaded", an invalid one shows why it was refused.
 */
// the first tmux test of a run compiles Shaper.java, minutes on a busy machine
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class ReloadToastTest {
    private static final Duration SHOWN = Duration.ofSeconds(30);

    @Test
    void reloadResultsShowAsToasts(@TempDir Path dir) throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "ok", "Content-Type: text/plain"));
             TmuxSession tmux = TmuxSession.start(100, 30)) {
            Path file = dir.resolve("shaper.yaml");
            Files.writeString(file, "upstream: " + up.url() + "\nconcurrency: 4\n");
            TuiProcess.start(tmux, "-config", file.toString(), "-config-watch");

            save(file, "upstream: " + up.url() + "\nconcurrency: 2\n");
            String ok = tmux.await("the reload toast", SHOWN, s -> s.contains("config reloaded: generation 2"));
            assertTrue(ok.contains("✓"), "an applied reload is an ok toast:\n" + ok);

            save(file, "upstream: " + up.url() + "\nconcurency: 2\n");
            tmux.await("the refused reload's toast", SHOWN, s -> s.contains("config reload failed"));

            tmux.keys("q");
            tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
        }
    }

    /** Writes a sibling and renames it over the file, as an editor's save does. */
    static void save(Path file, String text) throws Exception {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
