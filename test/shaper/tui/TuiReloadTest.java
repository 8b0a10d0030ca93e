package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.ScriptedUpstream;

/**
 * The dashboard follows the providers in force: a provider a live reload adds gets its chip and its
 * own data, and one the reload removes leaves the header.
 */
// the first tmux test of a run compiles Shaper.java, minutes on a busy machine
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class TuiReloadTest {
    private static final Duration SHOWN = Duration.ofSeconds(30);

    @Test
    void aProviderAddedByAReloadAppearsAndOneRemovedGoes(@TempDir Path dir) throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "ok", "Content-Type: text/plain"));
             TmuxSession tmux = TmuxSession.start(100, 30)) {
            Path file = dir.resolve("shaper.yaml");
            Files.writeString(file, providers(up, "alpha"));
            TuiProcess shaper = TuiProcess.start(tmux, "-config", file.toString(), "-config-watch");
            String before = tmux.screen();
            assertTrue(!before.contains("beta"), "one provider at start:\n" + before);

            ReloadToastTest.save(file, providers(up, "alpha", "beta"));
            tmux.await("the added provider's chip", SHOWN, s -> s.contains(" alpha 0/4 ")
                    && s.contains(" beta 0/4"));
            assertEquals(200, shaper.get("/beta/x").get(60, TimeUnit.SECONDS).statusCode());
            tmux.keys("Tab");
            tmux.await("the added provider's own dashboard", SHOWN, s -> s.contains("━━ Dashboard · beta") && s.contains("2xx 1"));

            ReloadToastTest.save(file, providers(up, "beta"));
            tmux.await("the removed provider gone", SHOWN, s -> !s.contains("alpha") && !s.contains("Dashboard · beta")
                && s.contains("━━ Dashboard") && s.contains("2xx 1"));

            tmux.keys("q");
            tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
        }
    }

    private static String providers(ScriptedUpstream up, String... names) {
        StringBuilder sb = new StringBuilder("providers:\n");
        for (String n : names) {
            sb.append("  - name: ").append(n).append("\n    upstream: ").append(up.url()).append("\n    prefix: /").append(n)
                    .append("\n    concurrency: 4\n");
        }
        return sb.toString();
    }
}
