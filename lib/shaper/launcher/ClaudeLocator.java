package shaper.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the Claude Code executable: {@code SHAPER_CLAUDE} (a path, or a name looked up on PATH),
 * else {@code claude} on PATH. A PATH entry that resolves to one of the launcher's own scripts
 * (e.g. {@code ~/bin/claude -> ./claude.sh}) is skipped, or the launcher would run itself.
 */
public final class ClaudeLocator {
    static final String DEFAULT_NAME = "claude";

    private ClaudeLocator() {
    }

    /**
     * @param self the launcher's own entry points ({@code claude.sh}, {@code ClaudeLauncher.java});
     *             compared by real path
     */
    public static Path locate(LauncherEnv env, Set<Path> self) throws LaunchException {
        String variable = LauncherVariable.CLAUDE.variable();
        if (env.claude().isPresent()) {
            String named = env.claude().get();
            if (named.contains(File.separator)) {
                Path p = Path.of(named);
                if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
                    throw new LaunchException(variable + " " + named + " is not an executable file");
                }
                return p;
            }
            return onPath(named, env.path(), self).orElseThrow(() -> new LaunchException(
                    variable + " " + named + " was not found on PATH"));
        }
        return onPath(DEFAULT_NAME, env.path(), self).orElseThrow(() -> new LaunchException(
                "Claude Code (claude) was not found on PATH; install it (npm install -g @anthropic-ai/claude-code)"
                        + " or set " + variable + " to its executable"));
    }

    /** The first executable {@code name} in {@code path}'s directories that is not one of {@code self}. */
    static Optional<Path> onPath(String name, String path, Set<Path> self) {
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate) && !isSelf(candidate, self)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static boolean isSelf(Path candidate, Set<Path> self) {
        try {
            Path real = candidate.toRealPath();
            for (Path s : self) {
                if (Files.exists(s) && real.equals(s.toRealPath())) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }
}
