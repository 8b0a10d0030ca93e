package shaper.launcher;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a launch reads from its surroundings, parsed once: the proxy options, the overlay and
 * executable overrides, and the environment Claude Code and a started shaper inherit. Tests build
 * one from a map instead of the real environment.
 *
 * @param proxy       what a started shaper gets
 * @param settings    {@code SHAPER_SETTINGS}, or empty
 * @param claude      {@code SHAPER_CLAUDE}, or empty
 * @param home        the user's home ({@code $HOME}); {@code ~/.claude/retry-proxy.json} lives below it
 * @param tmpDir      where the private settings directory is made and the default log lives
 * @param depth       how many launchers run above this one ({@link #DEPTH_VARIABLE})
 * @param environment the environment children inherit, unmodified
 */
public record LauncherEnv(ProxyOptions proxy, Optional<String> settings, Optional<String> claude, Path home,
        Path tmpDir, int depth, Map<String, String> environment) {
    /**
     * Set in Claude Code's environment to this launcher's depth + 1, so that a {@code claude}
     * wrapper on PATH that runs the launcher again is stopped after a few levels instead of forever.
     */
    public static final String DEPTH_VARIABLE = "SHAPER_LAUNCHER_DEPTH";
    /** Deeper than this is a loop: no sane setup nests Claude Code launches that far. */
    static final int MAX_DEPTH = 4;

    public LauncherEnv {
        Objects.requireNonNull(proxy, "proxy");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(claude, "claude");
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(tmpDir, "tmpDir");
        if (depth < 0) {
            throw new IllegalArgumentException("depth: " + depth + " (expected: >= 0)");
        }
        environment = Map.copyOf(environment);
    }

    /**
     * Reads the launcher's variables from {@code env}.
     *
     * @param fallbackHome   used when {@code HOME} is unset (the JVM's {@code user.home})
     * @param fallbackTmpDir used when {@code TMPDIR} is unset or relative (the JVM's {@code java.io.tmpdir})
     * @throws LaunchException naming the variable whose value is unusable
     */
    public static LauncherEnv parse(Map<String, String> env, Path fallbackHome, Path fallbackTmpDir) throws LaunchException {
        Path home = value(env, "HOME").map(Path::of).orElse(fallbackHome);
        Path tmpDir = value(env, "TMPDIR").map(Path::of).filter(Path::isAbsolute).orElse(fallbackTmpDir);
        int port = integer(env, LauncherVariable.PORT, ProxyOptions.DEFAULT_PORT, 1, 65_535);
        ProxyOptions proxy = new ProxyOptions(port,
                value(env, LauncherVariable.UPSTREAM.variable()).orElse(ProxyOptions.DEFAULT_UPSTREAM),
                value(env, LauncherVariable.RESPONSES_UPSTREAM.variable()),
                integer(env, LauncherVariable.BIG_CTX_TOKENS, ProxyOptions.DEFAULT_BIG_CTX_TOKENS, 0, Integer.MAX_VALUE),
                integer(env, LauncherVariable.BIG_CTX_CONCURRENCY, ProxyOptions.DEFAULT_BIG_CTX_CONCURRENCY, 1, Integer.MAX_VALUE),
                value(env, LauncherVariable.LOG.variable()).map(Path::of).orElse(tmpDir.resolve("shaper-" + port + ".log")),
                value(env, LauncherVariable.MIRROR_LOG.variable()).map(Path::of), configFile(env));
        int depth = value(env, DEPTH_VARIABLE).map(v -> {
            try {
                return Math.max(0, Integer.parseInt(v.trim()));
            } catch (NumberFormatException e) {
                return 0;
            }
        }).orElse(0);
        return new LauncherEnv(proxy, value(env, LauncherVariable.SETTINGS.variable()),
                value(env, LauncherVariable.CLAUDE.variable()), home, tmpDir, depth, env);
    }

    /**
     * {@code SHAPER_CONFIG}, made absolute (the shaper runs in the checkout, not in the caller's
     * directory); a file that is not there stops the launch before anything starts.
     */
    private static Optional<Path> configFile(Map<String, String> env) throws LaunchException {
        Optional<String> text = value(env, LauncherVariable.CONFIG.variable());
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Path file = Path.of(text.get()).toAbsolutePath().normalize();
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new LaunchException(LauncherVariable.CONFIG.variable() + ": " + file + " is not a readable file");
        }
        return Optional.of(file);
    }

    /** Claude Code's environment: this one plus the depth marker. */
    public Map<String, String> childEnvironment() {
        Map<String, String> child = new java.util.HashMap<>(environment);
        child.put(DEPTH_VARIABLE, Integer.toString(depth + 1));
        return child;
    }

    /** {@code PATH}, or empty text when unset. */
    public String path() {
        return environment.getOrDefault("PATH", "");
    }

    /** A set, non-empty value; empty strings count as unset, as in most shells' {@code ${VAR:-default}}. */
    private static Optional<String> value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    private static int integer(Map<String, String> env, LauncherVariable variable, int fallback, int min, int max)
            throws LaunchException {
        Optional<String> text = value(env, variable.variable());
        if (text.isEmpty()) {
            return fallback;
        }
        String expected = max == Integer.MAX_VALUE ? ">= " + min : min + ".." + max;
        try {
            int n = Integer.parseInt(text.get().trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the same message as an out-of-range number
        }
        throw new LaunchException(variable.variable() + ": \"" + text.get() + "\" (expected: an integer " + expected + ")");
    }
}
