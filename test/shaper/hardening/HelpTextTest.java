package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;

/** {@code -h} prints the flag reference and nothing else: no picocli warnings (an unescaped {@code %}). */
class HelpTextTest {

    @Test
    void helpPrintsNoWarnings() throws Exception {
        for (List<String> argv : List.of(List.of("-h"), List.of("--provider=b", "-h"))) {
            List<String> cmd = new java.util.ArrayList<>(List.of("./jbang", "Shaper.java"));
            cmd.addAll(argv);
            Process p = new ProcessBuilder(cmd).directory(ProjectRoot.find().toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(180, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertFalse(out.contains("WARN"), argv + " printed a warning:\n" + out);
            assertTrue(out.contains("-upstream"), out);
        }
    }
}
