package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shaper's log is created owner-only; an existing one that others could read or redirect is refused. */
class LogFileTest {
    @TempDir
    Path dir;

    @Test
    void aMissingLogIsCreatedOwnerOnly() throws Exception {
        Path log = dir.resolve("shaper.log");
        PrivateFiles.prepareLog(log, "SHAPER_LOG");
        assertTrue(Files.isRegularFile(log));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
    }

    @Test
    void anExistingOwnerOnlyLogIsKeptAsItIs() throws Exception {
        Path log = dir.resolve("shaper.log");
        Files.writeString(log, "earlier run\n");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-------"));
        PrivateFiles.prepareLog(log, "SHAPER_LOG");
        assertEquals("earlier run\n", Files.readString(log));
    }

    @Test
    void aLogReadableByOthersIsRefused() throws Exception {
        Path log = dir.resolve("shaper.log");
        Files.writeString(log, "");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
        LaunchException e = assertThrows(LaunchException.class, () -> PrivateFiles.prepareLog(log, "SHAPER_LOG"));
        assertEquals("SHAPER_LOG " + log + " is open to group or others (rw-r--r--); run chmod 600 on it or set SHAPER_LOG to another file",
                e.getMessage());
    }

    @Test
    void aLogWritableByTheGroupIsRefused() throws Exception {
        Path log = dir.resolve("shaper.log");
        Files.writeString(log, "");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw--w----"));
        assertThrows(LaunchException.class, () -> PrivateFiles.prepareLog(log, "SHAPER_LOG"));
    }

    @Test
    void aLogThatIsASymbolicLinkIsRefusedEvenToAPrivateFile() throws Exception {
        Path target = dir.resolve("target.log");
        Files.writeString(target, "");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        Path link = Files.createSymbolicLink(dir.resolve("shaper.log"), target);
        LaunchException e = assertThrows(LaunchException.class, () -> PrivateFiles.prepareLog(link, "SHAPER_LOG"));
        assertTrue(e.getMessage().contains("is a symbolic link"), e.getMessage());
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.log"), dir.resolve("nowhere.log"));
        assertThrows(LaunchException.class, () -> PrivateFiles.prepareLog(dangling, "SHAPER_LOG"));
        assertFalse(Files.exists(dir.resolve("nowhere.log")), "nothing is created through a link");
    }

    @Test
    void aLogThatIsNotARegularFileIsRefused() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("shaper.log"));
        LaunchException e = assertThrows(LaunchException.class, () -> PrivateFiles.prepareLog(sub, "SHAPER_LOG"));
        assertTrue(e.getMessage().contains("is not a regular file"), e.getMessage());
    }

    @Test
    void aRefusedLogStopsTheLaunchBeforeAShaperOrClaudeCodeStarts() throws Exception {
        int port = InProcessLaunch.freePort();
        Path log = dir.resolve("open.log");
        Files.writeString(log, "");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-rw-rw-"));
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, port).with("SHAPER_LOG", log.toString());
        InProcessLaunch.Result r = launch.run();
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("SHAPER_LOG " + log + " is open to group or others"), r.stderr());
        assertFalse(claude.ran());
        assertEquals(List.of(), launch.leftoverCopies());
        assertTrue(DetachedShapers.pid(port).isEmpty(), "no shaper was started");
    }

    @Test
    void aRefusedMirrorLogStopsTheLaunchToo() throws Exception {
        int port = InProcessLaunch.freePort();
        Path mirror = Files.createSymbolicLink(dir.resolve("mirror.log"), dir.resolve("elsewhere.log"));
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch.Result r = new InProcessLaunch(dir, claude, port).with("SHAPER_MIRROR_LOG", mirror.toString()).run();
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("SHAPER_MIRROR_LOG " + mirror + " is a symbolic link"), r.stderr());
        assertFalse(claude.ran());
    }
}
