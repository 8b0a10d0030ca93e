package shaper.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A pinned npm package installed once into {@code ~/.cache/shaper-test/<dir>} (or under
 * {@code $XDG_CACHE_HOME}) and reused while its installed {@code package.json} reports the pinned
 * version. Real clients in tests (Claude Code, the Anthropic SDK) come from here. A failed install
 * fails the test: nothing is skipped.
 *
 * @param dir     the cache directory name
 * @param name    the npm package name, e.g. {@code @anthropic-ai/sdk}
 * @param version the pinned version
 */
public record NpmPackage(String dir, String name, String version) {
    private static final long INSTALL_BOUND_SECONDS = 300;

    /** The install prefix ({@code node_modules} lives below it). */
    public Path prefix() {
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(System.getenv().getOrDefault("XDG_CACHE_HOME", home + "/.cache"), "shaper-test", dir);
    }

    /** The package's directory under {@code node_modules}. */
    public Path packageDir() {
        return prefix().resolve("node_modules").resolve(name);
    }

    /** Installs the pinned version unless it is already there; returns the prefix. */
    public Path install() throws IOException, InterruptedException {
        if (installed()) {
            return prefix();
        }
        Files.createDirectories(prefix());
        Path log = prefix().resolve("npm-install.log");
        String spec = name + "@" + version;
        Process npm = new ProcessBuilder("npm", "install", "--prefix", prefix().toString(), "--no-audit", "--no-fund", spec)
                .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        if (!npm.waitFor(INSTALL_BOUND_SECONDS, TimeUnit.SECONDS)) {
            npm.descendants().forEach(ProcessHandle::destroyForcibly);
            npm.destroyForcibly();
            throw new AssertionError("npm install " + spec + " took longer than " + INSTALL_BOUND_SECONDS + "s; see " + log);
        }
        if (npm.exitValue() != 0) {
            throw new AssertionError("npm install " + spec + " failed (" + npm.exitValue() + "):\n" + Files.readString(log));
        }
        if (!installed()) {
            throw new AssertionError("after npm install, " + packageDir() + " does not hold " + spec + ":\n" + Files.readString(log));
        }
        return prefix();
    }

    private boolean installed() throws IOException {
        Path json = packageDir().resolve("package.json");
        if (!Files.isRegularFile(json)) {
            return false;
        }
        String text = Files.readString(json, StandardCharsets.UTF_8);
        return text.matches("(?s).*\"version\"\\s*:\\s*\"" + java.util.regex.Pattern.quote(version) + "\".*");
    }
}
