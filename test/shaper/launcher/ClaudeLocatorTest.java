package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which executable is Claude Code, and how the launcher avoids running itself. */
class ClaudeLocatorTest {
    @TempDir
    Path dir;

    @Test
    void shaperClaudePathIsUsedAsGiven() throws Exception {
        Path exe = executable(dir.resolve("bin/real-claude"));
        assertEquals(exe, ClaudeLocator.locate(env(Map.of("SHAPER_CLAUDE", exe.toString(), "PATH", "")), Set.of()));
    }

    @Test
    void shaperClaudeThatIsNotExecutableIsRefused() throws Exception {
        Path plain = Files.writeString(Files.createDirectories(dir.resolve("bin")).resolve("claude"), "");
        LaunchException e = assertThrows(LaunchException.class,
                () -> ClaudeLocator.locate(env(Map.of("SHAPER_CLAUDE", plain.toString())), Set.of()));
        assertEquals("SHAPER_CLAUDE " + plain + " is not an executable file", e.getMessage());
    }

    @Test
    void shaperClaudeNameIsLookedUpOnPath() throws Exception {
        Path exe = executable(dir.resolve("bin/claude-2"));
        assertEquals(exe, ClaudeLocator.locate(env(Map.of("SHAPER_CLAUDE", "claude-2", "PATH", dir.resolve("bin").toString())), Set.of()));
    }

    @Test
    void pathLookupSkipsAnEntryThatIsTheLauncherItself() throws Exception {
        Path launcher = executable(dir.resolve("repo/claude.sh"));
        Path wrapperDir = Files.createDirectories(dir.resolve("wrapper"));
        Files.createSymbolicLink(wrapperDir.resolve("claude"), launcher);
        Path real = executable(dir.resolve("real/claude"));
        String path = wrapperDir + ":" + dir.resolve("empty") + "::" + real.getParent();
        assertEquals(real, ClaudeLocator.locate(env(Map.of("PATH", path)), Set.of(launcher)));
    }

    @Test
    void missingClaudeSaysHowToFixIt() {
        LaunchException e = assertThrows(LaunchException.class,
                () -> ClaudeLocator.locate(env(Map.of("PATH", dir.toString())), Set.of()));
        assertTrue(e.getMessage().contains("not found on PATH") && e.getMessage().contains("SHAPER_CLAUDE"), e.getMessage());
    }

    private LauncherEnv env(Map<String, String> vars) throws LaunchException {
        return LauncherEnv.parse(vars, dir, dir);
    }

    private static Path executable(Path p) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }
}
