package shaper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** {@code -h} is rendered from the option model: one line per flag, each flag once, with its type and default. */
class HelpTextTest {
    private static List<String> flagLines(String help) {
        return help.lines().filter(l -> l.startsWith("  -")).toList();
    }

    @Test
    void everyFlagHasExactlyOneLine() {
        List<String> lines = flagLines(HelpText.full("shaper"));
        for (FlagSpec f : OptionModel.current().flags()) {
            String left = HelpText.left(f);
            long n = lines.stream().filter(l -> l.startsWith("  " + left + " ")).count();
            assertEquals(1, n, f.flag() + " in:\n" + String.join("\n", lines));
        }
        assertEquals(OptionModel.current().flags().size(), lines.size());
    }

    @Test
    void everyDefaultIsShownOnceOnItsLine() {
        List<String> lines = flagLines(HelpText.full("shaper"));
        for (FlagSpec f : OptionModel.current().flags()) {
            String line = lines.stream().filter(l -> l.startsWith("  " + HelpText.left(f) + " ")).findFirst().orElseThrow();
            if (f.defaultValue() != null) {
                assertTrue(line.endsWith("(default " + f.defaultValue() + ")"), line);
                assertEquals(line.indexOf("(default "), line.lastIndexOf("(default "), line);
            }
        }
    }

    @Test
    void theServerScopeListsEveryServerFlag() {
        String help = HelpText.full("shaper");
        String server = help.substring(help.indexOf("Server-scope"), help.indexOf("Provider-scope"));
        for (String flag : List.of("-bind", "-client-key", "-metrics-bind", "-tui", "-shutdown-grace", "-header-read-timeout", "-config",
                "-config-watch", "-print-config", "-version")) {
            assertTrue(server.contains("  " + flag + " ") || server.contains("  " + flag + "\n"), flag + " in:\n" + server);
        }
    }

    @Test
    void typesAndTheIssuesDefaultsAreShown() {
        String help = HelpText.full("shaper");
        assertTrue(help.contains("  -retry int "), help);
        assertTrue(help.lines().anyMatch(l -> l.startsWith("  -retry int ") && l.endsWith("(default -1)")), help);
        assertTrue(help.lines().anyMatch(l -> l.startsWith("  -queue-timeout duration ") && l.endsWith("(default 30s)")), help);
        assertTrue(help.lines().anyMatch(l -> l.startsWith("  -upstream-timeout duration ") && l.contains("whole upstream call")), help);
    }

    @Test
    void aSectionsHelpListsTheProviderFlagsOnly() {
        String section = HelpText.section("shaper");
        assertTrue(section.contains("  -concurrency int "), section);
        assertTrue(!section.contains("  -bind "), section);
    }
}
