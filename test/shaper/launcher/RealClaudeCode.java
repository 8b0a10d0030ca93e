package shaper.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real Claude Code CLI from npm, installed once into {@code ~/.cache/shaper-test/claude-code}
 * and reused while it reports the pinned version. A failed install fails the test: nothing is skipped.
 */
final class RealClaudeCode {
    /** Pinned so the end-to-end test does not change under us; bump deliberately. */
    static final String VERSION = "2.1.197";
    static final String PACKAGE = "@anthropic-ai/claude-code@" + VERSION;
    private static final long INSTALL_BOUND_SECONDS = 300;

    private RealClaudeCode() {
    }

    /** The {@code claude} executable, installing it first when the cache lacks it. */
    static Path install() throws IOException, InterruptedException {
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        Path prefix = Path.of(System.getenv().getOrDefault("XDG_CACHE_HOME", home + "/.cache"), "shaper-test", "claude-code");
        Path claude = prefix.resolve("node_modules/.bin/claude");
        if (reportsPinnedVersion(claude)) {
            return claude;
        }
        Files.createDirectories(prefix);
        Path log = prefix.resolve("npm-install.log");
        Process npm = new ProcessBuilder("npm", "install", "--prefix", prefix.toString(), "--no-audit", "--no-fund", PACKAGE)
                .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        if (!npm.waitFor(INSTALL_BOUND_SECONDS, TimeUnit.SECONDS)) {
            npm.descendants().forEach(ProcessHandle::destroyForcibly);
            npm.destroyForcibly();
            throw new AssertionError("npm install " + PACKAGE + " took longer than " + INSTALL_BOUND_SECONDS + "s; see " + log);
        }
        if (npm.exitValue() != 0) {
            throw new AssertionError("npm install " + PACKAGE + " failed (" + npm.exitValue() + "):\n" + Files.readString(log));
        }
        if (!reportsPinnedVersion(claude)) {
            throw new AssertionError("after npm install, " + claude + " --version does not report " + VERSION + ":\n" + Files.readString(log));
        }
        return claude;
    }

    private static boolean reportsPinnedVersion(Path claude) throws IOException, InterruptedException {
        if (!Files.isExecutable(claude)) {
            return false;
        }
        Process p = new ProcessBuilder(List.of(claude.toString(), "--version")).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return false;
        }
        return p.exitValue() == 0 && new String(out, java.nio.charset.StandardCharsets.UTF_8).startsWith(VERSION);
    }
}
