package shaper.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import shaper.ProjectRoot;

/**
 * {@code ./claude.sh} as a user runs it, in a subprocess with a clean environment: a temp HOME and
 * TMPDIR, no ANTHROPIC_* or SHAPER_* from the developer's shell, and the JBang bootstrap cache of
 * the real home so the wrapper does not fetch JBang again. Started with {@code setsid} when present,
 * so it has no controlling terminal (a SIGINT to it is then a "non-terminal" one).
 */
final class LauncherScript {
    /** Covers a first compile of ClaudeLauncher.java and Shaper.java on a busy machine. */
    static final java.time.Duration START_BOUND = java.time.Duration.ofSeconds(240);

    private LauncherScript() {
    }

    static Map<String, String> environment(Path home, Path tmp) {
        Map<String, String> real = System.getenv();
        Map<String, String> env = new HashMap<>();
        for (String keep : List.of("PATH", "JAVA_HOME", "LANG", "LC_ALL", "JBANG_DIR", "JBANG_REPO")) {
            if (real.containsKey(keep)) {
                env.put(keep, real.get(keep));
            }
        }
        String realHome = real.getOrDefault("HOME", System.getProperty("user.home"));
        env.put("JBANG_BOOT_DIR", real.getOrDefault("JBANG_BOOT_DIR",
                real.getOrDefault("XDG_CACHE_HOME", realHome + "/.cache") + "/jbang-boot"));
        env.put("HOME", home.toString());
        env.put("TMPDIR", tmp.toString());
        return env;
    }

    /**
     * Starts {@code ROOT/claude.sh ARGS} in {@code workDir}; stdout and stderr go to
     * {@code out/stdout} and {@code out/stderr}.
     */
    static Process start(List<String> args, Map<String, String> env, Path workDir, Path out) {
        Path root = ProjectRoot.find();
        List<String> command = new ArrayList<>();
        ClaudeLocator.onPath("setsid", env.getOrDefault("PATH", ""), java.util.Set.of()).ifPresent(p -> command.add(p.toString()));
        command.add(root.resolve("claude.sh").toString());
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.resolve("stdout").toFile()).redirectError(out.resolve("stderr").toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        try {
            return pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits (bounded) for the process; kills it and fails when the bound passes. */
    static int await(Process p, java.time.Duration bound, Path out) throws InterruptedException {
        if (!p.waitFor(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("claude.sh still running after " + bound + "; stderr:\n" + read(out.resolve("stderr")));
        }
        return p.exitValue();
    }
}
