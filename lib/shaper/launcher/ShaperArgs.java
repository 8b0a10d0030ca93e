package shaper.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The command line of a shaper the launcher starts: the one place that says what the launcher's
 * proxy runs with. Its defaults serve one interactive Claude Code session: patient retries, since a
 * person at the prompt would rather wait out a rate limit than see the turn fail, and the
 * large-request gate, so one huge context does not run beside others.
 */
public final class ShaperArgs {
    /**
     * The launcher's retry settings: 8 attempts in all ({@code -retry 7}), a 2 s base delay, and 429s
     * retried like other rate limits, because the session behind the launcher is a person waiting.
     */
    static final List<String> LAUNCHER_RETRY = List.of("-retry", "7", "-retry-wait-min", "2s", "-retry-skip-429=false");

    private ShaperArgs() {
    }

    /**
     * The proxy's arguments, without the program: {@code -bind 127.0.0.1:PORT -upstream URL ...}; with a
     * configuration file, {@code -config FILE -bind 127.0.0.1:PORT}: any other flag would override the file.
     */
    public static List<String> proxyArgs(ProxyOptions o) {
        if (o.config().isPresent()) {
            return List.of("-config", o.config().get().toString(), "-bind", "127.0.0.1:" + o.port());
        }
        List<String> args = new ArrayList<>(List.of("-bind", "127.0.0.1:" + o.port(), "-upstream", o.upstream()));
        args.addAll(LAUNCHER_RETRY);
        args.addAll(List.of("-big-ctx-tokens", Integer.toString(o.bigCtxTokens()),
                "-big-ctx-concurrency", Integer.toString(o.bigCtxConcurrency())));
        o.responsesUpstream().ifPresent(u -> args.addAll(List.of("-responses-upstream", u)));
        o.mirrorLog().ifPresent(p -> args.addAll(List.of("-log-file", p.toString())));
        return List.copyOf(args);
    }

    /**
     * The whole command: {@code [setsid] ROOT/jbang Shaper.java ARGS}, run with {@code ROOT} as its
     * working directory.
     *
     * @param setsid {@code setsid} when found: a new session keeps terminal signals (Ctrl+C to the
     *               launcher's process group) and the terminal's hangup away from the shaper;
     *               without it the shaper still outlives the launcher, but shares its process group
     */
    public static List<String> command(Path root, ProxyOptions o, Optional<Path> setsid) {
        List<String> cmd = new ArrayList<>();
        setsid.ifPresent(p -> cmd.add(p.toString()));
        cmd.add(root.resolve("jbang").toString());
        cmd.add("Shaper.java");
        cmd.addAll(proxyArgs(o));
        return List.copyOf(cmd);
    }
}
