package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.testing.ScriptedUpstream;

/**
 * The help overlay and resizing: 120×40, a narrow 80×24, a tiny 40×12 that only gets a notice, and
 * back; Ctrl+C leaves a clean shell with exit code 0.
 */
class TerminalSizeTest {
    private static final Duration SHOWN = Duration.ofSeconds(15);

    @Test
    void helpResizesAndCtrlCLeaveACleanShell() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             TmuxSession tmux = TmuxSession.start(120, 40)) {
            TuiProcess.start(tmux, "-upstream", up.url());
            tmux.keys("?");
            String help = tmux.await("the help overlay", SHOWN, s -> s.contains("any key closes this help"));
            assertTrue(help.contains("Tab / Shift+Tab") && help.contains("q Ctrl+C") && help.contains("/              filter"), help);
            tmux.keys("x");
            tmux.await("help closed by any key", SHOWN, s -> !s.contains("any key closes this help") && s.contains("Throughput (10s)"));

            tmux.resize(80, 24);
            String narrow = tmux.await("the dashboard redrawn at 80x24", SHOWN, s -> TmuxSession.rows(s).size() == 24
                    && TmuxSession.lastRow(s).contains("q quit") && TmuxSession.rows(s).getFirst().contains("⚡ shaper"));
            for (String row : TmuxSession.rows(narrow)) {
                assertTrue(row.codePointCount(0, row.length()) <= 80, "a row wider than the terminal: " + row);
            }
            assertTrue(narrow.contains("6 Routes") && narrow.contains("Concurrency"), narrow);

            tmux.resize(40, 12);
            String tiny = tmux.await("the too-small notice", SHOWN, s -> s.contains("Terminal too small (40x12)"));
            List<String> rows = TmuxSession.rows(tiny).stream().filter(r -> !r.isBlank()).toList();
            assertTrue(rows.size() == 1, "only the one-line notice at 40x12:\n" + tiny);
            assertFalse(tiny.contains("Exception"), tiny);

            tmux.resize(120, 40);
            tmux.await("the dashboard back at 120x40", SHOWN, s -> TmuxSession.rows(s).size() == 40
                    && TmuxSession.lastRow(s).contains("q quit") && s.contains("Throughput (10s)"));

            tmux.keys("C-c");
            String after = tmux.await("the shell after Ctrl+C", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
            assertFalse(after.contains("1 Dashboard") || after.contains("━━"), "the alternate screen is gone:\n" + after);
            List<String> lines = TmuxSession.rows(after).stream().filter(r -> !r.isBlank()).toList();
            assertTrue(lines.getLast().startsWith(TmuxSession.PROMPT.strip()), "the prompt is back:\n" + after);
        }
    }
}
