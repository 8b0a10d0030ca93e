package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The launcher's upstream: Anthropic's API unless told otherwise, looked at once per launch (a dead
 * one is said, the launch goes on), and a reused shaper that forwards somewhere else than asked is
 * reported instead of silently taken.
 */
class LauncherUpstreamTest {
    @TempDir
    Path dir;

    @Test
    void theDefaultUpstreamIsAnthropicsApi() throws Exception {
        LauncherEnv env = LauncherEnv.parse(Map.of(), dir, dir);
        assertEquals("https://api.anthropic.com", env.proxy().upstream());
    }

    @Test
    void aReusedShaperWithAnotherUpstreamIsReportedAndADeadUpstreamIsSaid() throws Exception {
        int dead = InProcessLaunch.freePort();
        int asked = InProcessLaunch.freePort();
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + dead)) {
            FakeClaude claude = FakeClaude.exiting(dir, 0);
            InProcessLaunch.Result r = new InProcessLaunch(dir, claude, shaper.port())
                    .with("SHAPER_UPSTREAM", "http://127.0.0.1:" + asked).run();
            assertEquals(0, r.exitCode(), r.stderr());
            assertTrue(r.stderr().contains("claude-launcher: WARNING: that shaper forwards to http://127.0.0.1:" + dead
                    + ", not to http://127.0.0.1:" + asked + " (SHAPER_UPSTREAM): Claude Code talks to its upstream. Stop it (kill "
                    + ProcessHandle.current().pid() + ")"), r.stderr());
            assertTrue(r.stderr().contains("claude-launcher: WARNING: the upstream http://127.0.0.1:" + dead
                    + " cannot be reached (connection refused)"), r.stderr());
            assertTrue(claude.ran(), "a warning, not a refusal");
        }
    }

    @Test
    void aReusedShaperWithTheAskedReachableUpstreamGetsNoWarning() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("hi");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            FakeClaude claude = FakeClaude.exiting(dir, 0);
            InProcessLaunch.Result r = new InProcessLaunch(dir, claude, shaper.port()).with("SHAPER_UPSTREAM", up.url()).run();
            assertEquals(0, r.exitCode(), r.stderr());
            assertTrue(r.stderr().contains("reusing the shaper"), r.stderr());
            assertFalse(r.stderr().contains("WARNING"), r.stderr());
        }
    }
}
