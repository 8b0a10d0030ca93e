package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;

/**
 * The catalog aliases work as README documents, from a fresh clone (the tracked files only):
 * {@code ./jbang shaper}, {@code ./jbang shaper@<catalog dir>}, {@code probe-server} and
 * {@code claude-launcher}, and {@code ./jbang alias list} shows all three.
 */
class CatalogAliasTest {

    @Test
    void everyAliasRunsFromAFreshClone() throws Exception {
        Path clone = freshClone();
        try {
            String list = run(clone, Map.of(), "./jbang", "alias", "list");
            for (String alias : List.of("shaper", "probe-server", "claude-launcher")) {
                assertTrue(list.contains(alias), "alias list lacks " + alias + ":\n" + list);
            }
            assertTrue(run(clone, Map.of(), "./jbang", "shaper", "-version").contains("ai-concurrency-shaper"));
            assertTrue(run(clone, Map.of(), "./jbang", "shaper@" + clone, "-version").contains("ai-concurrency-shaper"));
            assertTrue(run(clone, Map.of(), "./jbang", "shaper@.", "-version").contains("ai-concurrency-shaper"));
            assertTrue(run(clone, Map.of(), "./jbang", "probe-server", "-h").contains("/flaky422"));
            try (ServerSocket notAShaper = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
                Thread.ofVirtual().start(() -> {
                    while (!notAShaper.isClosed()) {
                        try {
                            notAShaper.accept().close();
                        } catch (IOException e) {
                            return;
                        }
                    }
                });
                String out = run(clone, Map.of("SHAPER_PORT", String.valueOf(notAShaper.getLocalPort())),
                        "./jbang", "claude-launcher", "-p", "hi");
                assertTrue(out.contains("not"), "the launcher ran (and refused a port that is no shaper):\n" + out);
            }
        } finally {
            delete(clone);
        }
    }

    /** The tracked files of the repository, copied as a clone would have them. */
    private static Path freshClone() throws Exception {
        Path root = ProjectRoot.find();
        Process ls = new ProcessBuilder("git", "ls-files", "-z").directory(root.toFile()).start();
        String files = new String(ls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ls.waitFor(30, TimeUnit.SECONDS));
        Path clone = Files.createTempDirectory("shaper-clone");
        for (String f : files.split("\0")) {
            if (f.isEmpty() || !Files.isRegularFile(root.resolve(f))) {
                continue;
            }
            Path target = clone.resolve(f);
            Files.createDirectories(target.getParent());
            Files.copy(root.resolve(f), target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
        return clone;
    }

    private static String run(Path dir, Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(List.of(cmd))).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), String.join(" ", cmd) + " did not finish");
        assertTrue(!out.contains("No alias found") && !out.contains("could not be found"), String.join(" ", cmd) + ":\n" + out);
        if (!cmd[cmd.length - 1].equals("hi")) {
            assertEquals(0, p.exitValue(), String.join(" ", cmd) + ":\n" + out);
        }
        return out;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
