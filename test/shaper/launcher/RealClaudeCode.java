package shaper.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import shaper.testing.NpmPackage;

/**
 * The real Claude Code CLI from npm, installed once into {@code ~/.cache/shaper-test/claude-code-VERSION}
 * ({@link NpmPackage}) and reused while it reports the pinned version. The directory names the
 * version so that checkouts pinning different versions on one machine never reinstall over each
 * other mid-test. A failed install fails the test: nothing is skipped.
 */
public final class RealClaudeCode {
    /** The newest on npm when pinned (README names it); bump deliberately, with the captures in test/shaper/transcode/field. */
    public static final String VERSION = "2.1.332";
    static final NpmPackage PACKAGE = new NpmPackage("claude-code-" + VERSION, "@anthropic-ai/claude-code", VERSION);

    private RealClaudeCode() {
    }

    /** The {@code claude} executable, installing it first when the cache lacks it. */
    public static Path install() throws IOException, InterruptedException {
        Path claude = PACKAGE.prefix().resolve("node_modules/.bin/claude");
        if (reportsPinnedVersion(claude)) {
            return claude;
        }
        PACKAGE.install();
        if (!reportsPinnedVersion(claude)) {
            throw new AssertionError("after npm install, " + claude + " --version does not report " + VERSION);
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
