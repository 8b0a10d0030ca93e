package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.testing.ScriptedUpstream;

/**
 * The help overlay and resizing: 120×40, a narrow 80×24, a tiny 40×12 that still gets the whole
 * dashboard (shorter tab labels, the header's load kept), and back; Ctrl+C leaves a clean shell with
 * exit code 0.
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
            String tiny = tmux.await("the dashboard at 40x12", SHOWN, s -> TmuxSession.rows(s).size() == 12
                    && TmuxSession.lastRow(s).contains("q quit") && s.contains("Throughput (10s)"));
            List<String> rows = TmuxSession.rows(tiny);
            assertTrue(rows.getFirst().contains("⚡ shaper") && rows.getFirst().contains("active 0/4"), "the header keeps the load:\n" + tiny);
            assertTrue(rows.get(1).contains("1 Dash") && rows.get(1).strip().endsWith(" 8"), "every tab reachable:\n" + tiny);
            for (String row : rows) {
                assertTrue(row.codePointCount(0, row.length()) <= 40, "a row wider than the terminal: " + row);
            }
            assertFalse(tiny.contains("Terminal too small") || tiny.contains("Exception"), tiny);
            tmux.keys("5");
            tmux.await("another tab at 40x12", SHOWN, s -> s.contains("━━ Concurrency") && s.contains("default pool"));
            tmux.keys("1");

            tmux.resize(120, 40);
            tmux.await("the dashboard back at 120x40", SHOWN, s -> TmuxSession.rows(s).size() == 40
                    && TmuxSession.lastRow(s).contains("q quit") && s.contains("Throughput (10s)"));

            tmux.keys("C-c");
            // bash prints the exit line, then the prompt: wait for both, or a snapshot between them reads as no prompt
            String after = tmux.await("the shell and its prompt after Ctrl+C", SHOWN,
                    s -> s.contains(TuiProcess.EXIT_MARK + "0") && lastLine(s).startsWith(TmuxSession.PROMPT.strip()));
            assertFalse(after.contains("1 Dashboard") || after.contains("━━"), "the alternate screen is gone:\n" + after);
            assertTrue(lastLine(after).startsWith(TmuxSession.PROMPT.strip()), "the prompt is back:\n" + after);
        }
    }

    /** The last line of the pane that is not blank. */
    private static String lastLine(String screen) {
        List<String> lines = TmuxSession.rows(screen).stream().filter(r -> !r.isBlank()).toList();
        return lines.isEmpty() ? "" : lines.getLast();
    }
}
