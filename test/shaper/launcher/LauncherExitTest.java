package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.RunningShaper;

/** Claude Code's exit code, argv and the settings copy's life, against a reused in-process shaper. */
class LauncherExitTest {
    private static RunningShaper shaper;

    @TempDir
    Path dir;

    @BeforeAll
    static void startShaper() {
        shaper = RunningShaper.start("-upstream", "http://127.0.0.1:1");
    }

    @AfterAll
    static void stopShaper() {
        shaper.close();
    }

    @Test
    void zeroExitOfClaudeCodeIsTheLaunchersExit() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch.Result r = new InProcessLaunch(dir, claude, shaper.port()).run("-p", "hi");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(claude.ran());
    }

    @Test
    void nonZeroExitOfClaudeCodeIsPassedThroughAndTheCopyIsDeleted() {
        FakeClaude claude = FakeClaude.exiting(dir, 7);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, shaper.port());
        InProcessLaunch.Result r = launch.run("-p", "hi");
        assertEquals(7, r.exitCode(), r.stderr());
        assertFalse(Files.exists(claude.settingsPath()), "settings copy deleted");
        assertEquals(List.of(), launch.leftoverCopies());
    }

    @Test
    void settingsCopyIsDeletedAfterANormalExit() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, shaper.port());
        assertEquals(0, launch.run().exitCode());
        assertTrue(claude.settingsPath().startsWith(launch.tmp), "the copy lives in TMPDIR: " + claude.settingsPath());
        assertFalse(Files.exists(claude.settingsPath()));
        assertEquals(List.of(), launch.leftoverCopies());
    }

    @Test
    void claudeCodeGetsThePrivateSettingsFirstThenItsOwnArgumentsInOrder() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        new InProcessLaunch(dir, claude, shaper.port()).run("-p", "say hi", "--settings", "{}", "--output-format", "json", "", "--", "--settings");
        List<String> argv = claude.argv();
        assertEquals("--settings", argv.get(0));
        assertEquals(List.of("-p", "say hi", "--output-format", "json", "", "--", "--settings"), argv.subList(2, argv.size()),
                "the launcher's --settings is consumed, everything else (after -- too) passes unchanged");
    }

    @Test
    void settingsCopyIsOwnerOnlyInAnOwnerOnlyDirectory() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        new InProcessLaunch(dir, claude, shaper.port()).run();
        assertEquals("600", claude.settingsMode());
        assertEquals("700", claude.settingsDirMode());
    }

    @Test
    void claudeCodeIsToldItsLauncherDepth() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        new InProcessLaunch(dir, claude, shaper.port()).with(LauncherEnv.DEPTH_VARIABLE, "1").run();
        assertEquals("2", claude.depth());
    }

    @Test
    void aLaunchNestedTooDeepIsRefusedAsAWrapperLoop() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, shaper.port()).with(LauncherEnv.DEPTH_VARIABLE, "4");
        InProcessLaunch.Result r = launch.run();
        assertEquals(1, r.exitCode());
        assertTrue(r.stderr().contains("SHAPER_CLAUDE"), r.stderr());
        assertFalse(claude.ran());
    }

    @Test
    void aStopSignalBeforeClaudeCodeStartsEndsTheLaunchAndDeletesTheCopy() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, shaper.port());
        ClaudeProcess process = new ClaudeProcess();
        process.signal(StopSignal.TERM, false);
        InProcessLaunch.Result r = launch.run(process);
        assertEquals(143, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("SIGTERM"), r.stderr());
        assertFalse(claude.ran());
        assertEquals(List.of(), launch.leftoverCopies());
    }

    @Test
    void aMissingClaudeExecutableStopsTheLaunch() {
        InProcessLaunch launch = new InProcessLaunch(dir, null, shaper.port())
                .with("SHAPER_CLAUDE", dir.resolve("no-such-claude").toString());
        InProcessLaunch.Result r = launch.run();
        assertEquals(1, r.exitCode());
        assertTrue(r.stderr().contains("is not an executable file"), r.stderr());
        assertEquals(List.of(), launch.leftoverCopies());
    }
}
