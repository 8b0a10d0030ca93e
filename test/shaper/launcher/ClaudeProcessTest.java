package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.RunningShaper;

/** Stop signals reach Claude Code once, with a bounded grace, and never before it starts. */
class ClaudeProcessTest {
    private static final Map<String, String> ENV = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    private static final Duration BOUND = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void sigtermIsForwardedToARunningClaudeCode() throws Exception {
        FakeClaude fake = FakeClaude.waiting(dir, FakeClaude.Mode.WAIT_FOR_SIGNAL);
        ClaudeProcess claude = new ClaudeProcess();
        CompletableFuture<Integer> exit = runAsync(claude, fake);
        RunningShaper.await("fake claude ready", BOUND, fake::ready);
        claude.signal(StopSignal.TERM, false);
        assertEquals(42, exit.get(BOUND.toSeconds(), TimeUnit.SECONDS), "the child's own exit code on SIGTERM");
        assertEquals(List.of("TERM"), fake.signals());
    }

    @Test
    void sigintFromOutsideATerminalIsForwarded() throws Exception {
        FakeClaude fake = FakeClaude.waiting(dir, FakeClaude.Mode.WAIT_FOR_SIGNAL);
        ClaudeProcess claude = new ClaudeProcess();
        CompletableFuture<Integer> exit = runAsync(claude, fake);
        RunningShaper.await("fake claude ready", BOUND, fake::ready);
        claude.signal(StopSignal.INT, false);
        assertEquals(43, exit.get(BOUND.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of("INT"), fake.signals());
    }

    @Test
    void anInterruptTheChildGotFromTheTerminalIsNotSentAgainNorEndsIt() throws Exception {
        FakeClaude fake = FakeClaude.waiting(dir, FakeClaude.Mode.WAIT_FOR_SIGNAL);
        ClaudeProcess claude = new ClaudeProcess();
        CompletableFuture<Integer> exit = runAsync(claude, fake);
        RunningShaper.await("fake claude ready", BOUND, fake::ready);
        claude.signal(StopSignal.INT, true);
        // Nothing observable must happen; a later SIGTERM proves the child was still running and untouched.
        assertFalse(exit.isDone());
        claude.signal(StopSignal.TERM, false);
        assertEquals(42, exit.get(BOUND.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of("TERM"), fake.signals(), "no second SIGINT was injected");
    }

    @Test
    void claudeCodeThatIgnoresSigtermIsKilledAfterTheGrace() throws Exception {
        FakeClaude fake = FakeClaude.waiting(dir, FakeClaude.Mode.IGNORE_SIGTERM);
        ClaudeProcess claude = new ClaudeProcess();
        CompletableFuture<Integer> exit = runAsync(claude, fake);
        RunningShaper.await("fake claude ready", BOUND, fake::ready);
        long start = System.nanoTime();
        claude.signal(StopSignal.TERM, false);
        assertEquals(137, exit.get(BOUND.toSeconds(), TimeUnit.SECONDS), "SIGKILL after the grace");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(ClaudeProcess.GRACE.minusMillis(500)) >= 0, "killed only after the grace: " + took);
        assertEquals(List.of("TERM"), fake.signals());
    }

    @Test
    void aSignalBeforeStartMeansClaudeCodeNeverStarts() {
        FakeClaude fake = FakeClaude.exiting(dir, 0);
        ClaudeProcess claude = new ClaudeProcess();
        claude.signal(StopSignal.INT, true);
        assertTrue(claude.stopRequested());
        LaunchException e = assertThrows(LaunchException.class, () -> claude.run(List.of(fake.executable().toString()), ENV));
        assertEquals(130, e.exitCode());
        assertFalse(fake.ran());
    }

    private static CompletableFuture<Integer> runAsync(ClaudeProcess claude, FakeClaude fake) {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        Thread.ofPlatform().name("launch").start(() -> {
            try {
                exit.complete(claude.run(List.of(fake.executable().toString(), "--settings", "/dev/null"), ENV));
            } catch (Exception e) {
                exit.completeExceptionally(e);
            }
        });
        return exit;
    }
}
