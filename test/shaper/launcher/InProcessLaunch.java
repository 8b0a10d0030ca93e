package shaper.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import shaper.ProjectRoot;

/**
 * The launcher's main logic run in this JVM with a controlled environment: a temp HOME and TMPDIR,
 * a fake {@code claude} via {@code SHAPER_CLAUDE},(the proxy
 * does not have the retry flags yet), and no signal handlers.
 */
final class InProcessLaunch {
    final Path home;
    final Path tmp;
    final Map<String, String> env = new HashMap<>();

    /** The outcome of one launch. */
    record Result(int exitCode, String stderr) {
    }

    InProcessLaunch(Path base, FakeClaude claude, int port) {
        try {
            this.home = Files.createDirectories(base.resolve("home"));
            this.tmp = Files.createDirectories(base.resolve("tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // A started shaper runs ./jbang, which needs PATH, JAVA_HOME and the JBang bootstrap cache.
        env.putAll(LauncherScript.environment(home, tmp));
        env.put("SHAPER_PORT", Integer.toString(port));
        if (claude != null) {
            env.put("SHAPER_CLAUDE", claude.executable().toString());
        }
    }

    InProcessLaunch with(String name, String value) {
        env.put(name, value);
        return this;
    }

    Result run(String... argv) {
        return run(new ClaudeProcess(), argv);
    }

    Result run(ClaudeProcess claude, String... argv) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream ps = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            LauncherEnv parsed;
            try {
                parsed = LauncherEnv.parse(env, home, tmp);
            } catch (LaunchException e) {
                return new Result(e.exitCode(), e.getMessage());
            }
            code = LauncherMain.run(List.of(argv), parsed, ProjectRoot.find(), claude, LauncherMain.Signals.NONE, ps);
        }
        return new Result(code, err.toString(StandardCharsets.UTF_8));
    }

    /** Settings copies (private directories) left in TMPDIR. */
    List<Path> leftoverCopies() {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().startsWith(TempSettings.DIRECTORY_PREFIX)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
