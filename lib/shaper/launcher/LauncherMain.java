package shaper.launcher;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The launcher's entry point behind {@code ClaudeLauncher.java}: one launch as the package doc
 * describes it. Its own messages go to stderr, prefixed {@value #PREFIX}; stdout belongs to Claude
 * Code (e.g. {@code -p --output-format json}).
 */
public final class LauncherMain {
    static final String PREFIX = "claude-launcher: ";
    /** Set by {@code claude.sh} to the repository root, so the launcher runs from any directory. */
    static final String ROOT_PROPERTY = "shaper.root";

    /** How a launch hears about signals; production installs handlers, tests install nothing. */
    public interface Signals {
        Signals NONE = (claude, temp) -> { };

        void install(ClaudeProcess claude, TempSettings temp);
    }

    private LauncherMain() {
    }

    /**
     * The JVM entry when the launcher runs from the proxy's own build ({@code claude.sh}, {@code ./jbang
     * ClaudeLauncher.java} through the wrapper, the {@code claude-launcher} alias): the same as
     * {@code ClaudeLauncher.java}'s main.
     */
    public static void main(String[] argv) {
        System.exit(launch(argv));
    }

    /** Production: the real environment, home, temp directory, root and signal handlers. */
    public static int launch(String[] argv) {
        Path root;
        LauncherEnv env;
        try {
            root = root();
            env = LauncherEnv.parse(System.getenv(), Path.of(System.getProperty("user.home")),
                    Path.of(System.getProperty("java.io.tmpdir")));
        } catch (LaunchException e) {
            System.err.println(PREFIX + e.getMessage());
            return e.exitCode();
        }
        return run(Arrays.asList(argv), env, root, new ClaudeProcess(), PosixSignals.detect(System.err), System.err);
    }

    /**
     * One launch.
     *
     * @param root    the directory holding {@code jbang}, {@code Shaper.java} and {@code claude.sh}
     * @param claude  the child's supervisor; tests keep it to send signals
     * @return Claude Code's exit code, or the launcher's own (1 refused, 2 usage, 128+signal stopped)
     */
    public static int run(List<String> argv, LauncherEnv env, Path root, ClaudeProcess claude, Signals signals, PrintStream err) {
        try {
            LauncherArgs args = LauncherArgs.parse(argv);
            if (env.depth() >= LauncherEnv.MAX_DEPTH) {
                throw new LaunchException("the launcher was started " + env.depth() + " levels deep (" + LauncherEnv.DEPTH_VARIABLE
                        + "); a claude wrapper on PATH probably runs it again. Set " + LauncherVariable.CLAUDE.variable()
                        + " to the real Claude Code executable");
            }
            ObjectNode source = SettingsOverlay.load(args.settings(), env);
            Path executable = ClaudeLocator.locate(env, Set.of(root.resolve("claude.sh"), root.resolve("ClaudeLauncher.java")));
            SettingsOverlay.Result overlay = SettingsOverlay.withBaseUrl(source, env.proxy().baseUrl());
            if (overlay.replacedBaseUrl()) {
                err.println(PREFIX + "the settings' env." + SettingsOverlay.BASE_URL + " is replaced by " + env.proxy().baseUrl()
                        + " in the copy; set " + LauncherVariable.UPSTREAM.variable() + " to send the shaper's traffic there");
            }
            try (TempSettings temp = TempSettings.write(env.tmpDir(), overlay.bytes())) {
                signals.install(claude, temp);
                PortState.Shaper running = new ShaperProcess(env.proxy()).ensureRunning(root, env.environment(), err, claude::stopRequested);
                ShaperProcess.checkUpstreams(running, err);
                List<String> command = new ArrayList<>(List.of(executable.toString(), LauncherArgs.SETTINGS, temp.path().toString()));
                command.addAll(args.claudeArgs());
                return claude.run(command, env.childEnvironment());
            }
        } catch (LaunchException e) {
            LaunchException shown = e;
            if (claude.stopRequested() && e.exitCode() == LaunchException.FAILED) {
                shown = claude.stoppedException();
            }
            err.println(PREFIX + shown.getMessage());
            return shown.exitCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(PREFIX + "interrupted");
            return LaunchException.FAILED;
        }
    }

    /** {@value #ROOT_PROPERTY}, else the working directory when it holds the launcher's scripts. */
    private static Path root() throws LaunchException {
        String property = System.getProperty(ROOT_PROPERTY);
        Path root = property != null && !property.isEmpty() ? Path.of(property) : Path.of("").toAbsolutePath();
        if (Files.isRegularFile(root.resolve("Shaper.java")) && Files.isExecutable(root.resolve("jbang"))) {
            return root.toAbsolutePath();
        }
        throw new LaunchException("cannot find Shaper.java and jbang in " + root + "; run ./claude.sh, or run the launcher"
                + " from the repository directory");
    }
}
