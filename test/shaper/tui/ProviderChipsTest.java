package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.ScriptedUpstream;

/** Two providers: one chip each in the header, Tab and Shift+Tab switch whose data the tabs show. */
class ProviderChipsTest {
    private static final Duration SHOWN = Duration.ofSeconds(15);

    @Test
    void oneChipPerProviderAndTabSwitchesBetweenThem() throws Exception {
        try (ScriptedUpstream alpha = ScriptedUpstream.ok("from alpha");
             ScriptedUpstream beta = ScriptedUpstream.ok("from beta");
             TmuxSession tmux = TmuxSession.start(120, 40)) {
            TuiProcess shaper = TuiProcess.start(tmux, "--provider=alpha", "-upstream", alpha.url(), "-prefix", "/alpha",
                    "-concurrency", "3", "--provider=beta", "-upstream", beta.url(), "-prefix", "/beta", "-concurrency", "5");
            String screen = tmux.screen();
            String header = TmuxSession.rows(screen).getFirst();
            assertTrue(header.contains(" alpha 0/3 ") && header.contains(" beta 0/5"), "chips on row 0:\n" + screen);
            assertTrue(screen.contains("━━ Dashboard · alpha"), "the first provider is shown first:\n" + screen);

            assertEquals("from beta", shaper.get("/beta/v1/only-beta").get(30, TimeUnit.SECONDS).body());
            tmux.keys("2");
            tmux.await("alpha's empty request list", SHOWN, s -> s.contains("━━ Requests · alpha") && s.contains("no requests yet"));
            tmux.keys("Tab");
            tmux.await("beta's request list after Tab", SHOWN,
                    s -> s.contains("━━ Requests · beta") && s.contains("/v1/only-beta") && !s.contains("no requests yet"));
            tmux.keys("BTab");
            tmux.await("alpha again after Shift+Tab", SHOWN, s -> s.contains("━━ Requests · alpha") && !s.contains("/v1/only-beta"));
            tmux.keys("Tab", "Tab");
            tmux.await("Tab cycles past the last provider", SHOWN, s -> s.contains("━━ Requests · alpha"));

            tmux.resize(80, 24);
            String narrow = tmux.await("the narrow layout", SHOWN, s -> TmuxSession.lastRow(s).contains("q quit"));
            List<String> rows = TmuxSession.rows(narrow);
            assertTrue(String.join("\n", rows.subList(0, 2)).contains(" alpha 0/3 ")
                    && String.join("\n", rows.subList(0, 2)).contains(" beta 0/5"), "chips stay visible at 80x24:\n" + narrow);
            tmux.keys("Tab");
            tmux.await("Tab still switches at 80x24", SHOWN, s -> s.contains("━━ Requests · beta") && s.contains("/v1/only-beta"));

            tmux.keys("q");
            tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
        }
    }
}
