package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.RunningShaper;

/** Real signals to a real {@code ./claude.sh}: forwarded to Claude Code, the copy deleted, the child's code returned. */
class LauncherSignalTest {
    private static final Duration EXIT_BOUND = Duration.ofSeconds(20);
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
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sigtermToTheLauncherReachesClaudeCodeAndTheCopyIsDeleted() throws Exception {
        Launched l = launch();
        l.process.destroy();
        assertEquals(42, LauncherScript.await(l.process, EXIT_BOUND, dir), "Claude Code's exit code on SIGTERM; stderr:\n" + l.stderr());
        assertEquals(List.of("TERM"), l.fake.signals());
        assertFalse(Files.exists(l.fake.settingsPath()), "settings copy deleted");
        assertEquals(List.of(), leftovers(l.tmp));
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sigintToALauncherWithoutTerminalIsForwardedOnce() throws Exception {
        Launched l = launch();
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(l.process.pid())).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0);
        assertEquals(43, LauncherScript.await(l.process, EXIT_BOUND, dir), "stderr:\n" + l.stderr());
        assertEquals(List.of("INT"), l.fake.signals());
        assertEquals(List.of(), leftovers(l.tmp));
    }

    private record Launched(Process process, FakeClaude fake, Path tmp, Path out) {
        String stderr() {
            return LauncherScript.read(out.resolve("stderr"));
        }
    }

    private Launched launch() throws Exception {
        FakeClaude fake = FakeClaude.waiting(dir, FakeClaude.Mode.WAIT_FOR_SIGNAL);
        Path home = Files.createDirectories(dir.resolve("home"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Map<String, String> env = LauncherScript.environment(home, tmp);
        env.put("SHAPER_PORT", Integer.toString(shaper.port()));
        env.put("SHAPER_CLAUDE", fake.executable().toString());
        Process p = LauncherScript.start(List.of("-p", "hi"), env, dir, dir);
        try {
            RunningShaper.await("fake claude started by ./claude.sh", LauncherScript.START_BOUND, () -> fake.ready() || !p.isAlive());
        } catch (AssertionError e) {
            p.destroyForcibly();
            throw e;
        }
        Launched l = new Launched(p, fake, tmp, dir);
        assertTrue(p.isAlive(), "launcher ended early; stderr:\n" + l.stderr());
        assertTrue(Files.exists(fake.settingsPath()), "the copy exists while Claude Code runs");
        String command = ProcessHandle.of(p.pid()).flatMap(h -> h.info().command()).orElse("");
        assertTrue(command.endsWith("java"), "the signalled pid is the launcher's JVM: " + command);
        return l;
    }

    private static List<Path> leftovers(Path tmp) throws Exception {
        try (var s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().startsWith(TempSettings.DIRECTORY_PREFIX)).toList();
        }
    }
}
