package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;
import shaper.testing.TestNet;

/** {@code -tui} with stdout not a terminal fails at startup with a clear message and exit 1, before binding. */
class NoTerminalTest {
    @Test
    void tuiWithoutATerminalExitsOneAndBindsNothing() throws Exception {
        int port = TestNet.freePort();
        Path out = Files.createTempFile("shaper-tui", ".out");
        try {
            Process p = new ProcessBuilder(List.of("./jbang", "Shaper.java", "-tui", "-bind", "127.0.0.1:" + port,
                    "-upstream", "http://127.0.0.1:1"))
                    .directory(ProjectRoot.find().toFile()).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(TmuxSession.START_BOUND.toSeconds(), TimeUnit.SECONDS), "still running: " + err);
            assertEquals(1, p.exitValue(), err);
            assertTrue(err.contains("-tui needs a terminal: standard output is not a terminal"), err);
            assertTrue(Files.readString(out).isEmpty(), "nothing on stdout: " + Files.readString(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
