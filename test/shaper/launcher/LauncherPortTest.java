package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** Reuse a shaper, start one on a free port, refuse a port that something else holds. */
class LauncherPortTest {
    @TempDir
    Path dir;

    @Test
    void aHealthyShaperOnThePortIsReused() {
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:1")) {
            FakeClaude claude = FakeClaude.exiting(dir, 0);
            InProcessLaunch.Result r = new InProcessLaunch(dir, claude, shaper.port()).run();
            assertEquals(0, r.exitCode(), r.stderr());
            assertTrue(r.stderr().contains("reusing the shaper on http://127.0.0.1:" + shaper.port()
                    + " (pid " + ProcessHandle.current().pid() + ", upstream http://127.0.0.1:1)"), r.stderr());
            assertTrue(claude.settings().contains("http://127.0.0.1:" + shaper.port()));
        }
    }

    @Test
    void aPortAnsweringWithSomethingElseIsRefused() {
        assertForeign(ScriptedUpstream.ok("just a web page"), "answered 200 without JSON");
        assertForeign(ScriptedUpstream.start((req, ex) -> ex.respond(404, "not found")), "answered 404");
        assertForeign(ScriptedUpstream.start((req, ex) -> ex.respond(200, "{\"service\":\"other\",\"pid\":1}",
                "Content-Type: application/json")), "JSON that is not ai-concurrency-shaper's");
    }

    @Test
    void aListenerThatNeverAnswersIsRefused() throws Exception {
        // Bound and listening but never accepting: the kernel completes the handshake, nobody answers.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            FakeClaude claude = FakeClaude.exiting(dir, 0);
            InProcessLaunch launch = new InProcessLaunch(dir, claude, silent.getLocalPort());
            InProcessLaunch.Result r = launch.run();
            assertEquals(1, r.exitCode(), r.stderr());
            assertTrue(r.stderr().contains("no HTTP answer"), r.stderr());
            assertFalse(claude.ran());
            assertEquals(List.of(), launch.leftoverCopies());
        }
    }

    @Test
    void aShaperThatCannotStartIsReportedWithItsLogAndTheCopyIsDeleted() throws Exception {
        int port = InProcessLaunch.freePort();
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, port).with("SHAPER_UPSTREAM", "ftp://127.0.0.1:1");
        InProcessLaunch.Result r = launch.run();
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("the shaper exited with code 1 before it became healthy"), r.stderr());
        assertTrue(r.stderr().contains("scheme must be http or https"), "the proxy's own message is shown: " + r.stderr());
        assertFalse(claude.ran());
        assertEquals(List.of(), launch.leftoverCopies());
    }

    @Test
    void aFreePortGetsADetachedShaperThatOutlivesTheLaunch() throws Exception {
        int port = InProcessLaunch.freePort();
        try (ScriptedUpstream upstream = ScriptedUpstream.ok("hi")) {
            FakeClaude claude = FakeClaude.exiting(dir, 0);
            InProcessLaunch launch = new InProcessLaunch(dir, claude, port).with("SHAPER_UPSTREAM", upstream.url());
            try {
                InProcessLaunch.Result r = launch.run("-p", "hi");
                assertEquals(0, r.exitCode(), r.stderr());
                assertTrue(r.stderr().contains("starting a shaper on http://127.0.0.1:" + port), r.stderr());
                long pid = DetachedShapers.pid(port).orElseThrow(() -> new AssertionError("no shaper answers after the launch"));
                assertNotEquals(ProcessHandle.current().pid(), pid);
                assertNotEquals(DetachedShapers.sessionOf(ProcessHandle.current().pid()), DetachedShapers.sessionOf(pid),
                        "the shaper runs in its own session");
                String args = DetachedShapers.commandLine(pid);
                assertTrue(args.contains("-bind 127.0.0.1:" + port + " -upstream " + upstream.url()), args);
                Path log = launch.tmp.resolve("shaper-" + port + ".log");
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
                RunningShaper.await("the shaper's startup line in its log", java.time.Duration.ofSeconds(10),
                        () -> read(log).contains("listening on 127.0.0.1:" + port));
            } finally {
                DetachedShapers.stop(port);
            }
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private void assertForeign(ScriptedUpstream holder, String evidence) {
        try (holder) {
            Path base = dir.resolve("foreign-" + holder.port());
            FakeClaude claude = FakeClaude.exiting(base, 0);
            InProcessLaunch launch = new InProcessLaunch(base, claude, holder.port());
            InProcessLaunch.Result r = launch.run();
            assertEquals(1, r.exitCode(), r.stderr());
            assertTrue(r.stderr().contains("127.0.0.1:" + holder.port() + " is held by something that is not ai-concurrency-shaper"),
                    r.stderr());
            assertTrue(r.stderr().contains(evidence), r.stderr());
            assertTrue(r.stderr().contains("SHAPER_PORT"), r.stderr());
            assertFalse(claude.ran(), "Claude Code must not start");
            assertEquals(List.of(), launch.leftoverCopies());
        }
    }
}
