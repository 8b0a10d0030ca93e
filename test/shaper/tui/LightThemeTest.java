package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.testing.ScriptedUpstream;

/**
 * The theme follows the terminal's background: under a tmux whose panes are white (tmux then
 * answers the background query as a terminal does), the dashboard draws with the light palette
 * (the active tab filled with {@code #0550AE}); under a dark pane, with the dark one. The
 * terminal's replies never act as keys: the dashboard stays on its first tab with no overlay open
 * (a leaked DA1 reply {@code ?1;2c} would open the help, switch tabs and ask to reset).
 */
// the first tmux test of a run compiles Shaper.java, minutes on a busy machine
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class LightThemeTest {
    private static final Duration SHOWN = Duration.ofSeconds(20);
    /** The light accent as an SGR background, as tmux captures a 24-bit colour. */
    private static final String LIGHT_ACCENT_FILL = "48;2;5;80;174";
    private static final String DARK_ACCENT_FILL = "48;2;88;166;255";

    @Test
    void aWhiteTerminalGetsTheLightPalette() throws Exception {
        String styled = dashboardUnder("bg=#ffffff", LIGHT_ACCENT_FILL);
        assertFalse(styled.contains(DARK_ACCENT_FILL), "no dark accent left:\n" + styled);
    }

    @Test
    void aDarkTerminalKeepsTheDarkPalette() throws Exception {
        String styled = dashboardUnder("bg=#0d1117", DARK_ACCENT_FILL);
        assertFalse(styled.contains(LIGHT_ACCENT_FILL), styled);
    }

    /** Starts the dashboard in a pane of {@code style}, waits for {@code fill}, and returns the styled screen. */
    private static String dashboardUnder(String style, String fill) throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             TmuxSession tmux = TmuxSession.start(100, 30, style)) {
            TuiProcess.startWith(tmux, List.of("COLORTERM=truecolor"), "-upstream", up.url());
            long deadline = System.nanoTime() + SHOWN.toNanos();
            String styled = tmux.screenWithStyles();
            while (!styled.contains(fill)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no " + fill + " within " + SHOWN + "; the screen:\n" + styled);
                }
                Thread.sleep(50);
                styled = tmux.screenWithStyles();
            }
            String plain = tmux.screen();
            assertTrue(plain.contains("━━ Dashboard") && plain.contains("Throughput (10s)"), "still on the first tab:\n" + plain);
            assertFalse(plain.contains("any key closes this help") || plain.contains("Reset the dashboard's counters"),
                    "a terminal reply acted as keys:\n" + plain);
            tmux.keys("q");
            tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
            return styled;
        }
    }
}
