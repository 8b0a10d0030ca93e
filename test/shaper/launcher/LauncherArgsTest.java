package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The launcher takes --settings; everything else belongs to Claude Code. */
class LauncherArgsTest {
    @Test
    void settingsIsTakenInBothSpellingsAndRemoved() throws LaunchException {
        assertEquals(new LauncherArgs(Optional.of("a.json"), List.of("-p", "hi")), LauncherArgs.parse(List.of("--settings", "a.json", "-p", "hi")));
        assertEquals(new LauncherArgs(Optional.of("{}"), List.of("-p", "hi")), LauncherArgs.parse(List.of("-p", "hi", "--settings={}")));
        assertEquals(new LauncherArgs(Optional.empty(), List.of("--resume")), LauncherArgs.parse(List.of("--resume")));
    }

    @Test
    void argumentsAfterDoubleDashAreClaudeCodesUntouched() throws LaunchException {
        assertEquals(new LauncherArgs(Optional.empty(), List.of("--", "--settings", "x")), LauncherArgs.parse(List.of("--", "--settings", "x")));
    }

    @Test
    void settingsWithoutValueOrTwiceIsAUsageError() {
        assertEquals(2, assertThrows(LaunchException.class, () -> LauncherArgs.parse(List.of("--settings"))).exitCode());
        LaunchException twice = assertThrows(LaunchException.class, () -> LauncherArgs.parse(List.of("--settings", "a", "--settings=b")));
        assertEquals(2, twice.exitCode());
        assertEquals("--settings given twice; the launcher takes one overlay", twice.getMessage());
    }
}
