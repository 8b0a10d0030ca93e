package shaper.launcher;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What a shaper started by the launcher runs with. A shaper that is already healthy on the port is
 * reused as it is: these values do not reach it.
 *
 * @param port              loopback port, 1..65535
 * @param upstream          {@code -upstream}; the proxy validates the URL itself
 * @param responsesUpstream {@code -responses-upstream}, or empty
 * @param bigCtxTokens      {@code -big-ctx-tokens}, >= 0 (0 disables the gate)
 * @param bigCtxConcurrency {@code -big-ctx-concurrency}, >= 1
 * @param log               file that receives the shaper's stdout and stderr
 * @param mirrorLog         {@code -log-file}, or empty
 * @param config            {@code SHAPER_CONFIG}: an absolute {@code -config} file that then configures the shaper
 *                          alone (only its {@code -bind} comes from the launcher), or empty
 */
public record ProxyOptions(int port, String upstream, Optional<String> responsesUpstream, int bigCtxTokens,
        int bigCtxConcurrency, Path log, Optional<Path> mirrorLog, Optional<Path> config) {
    /** The default upstream: Anthropic's API (a local bridge such as cc-switch is set with {@code SHAPER_UPSTREAM}). */
    public static final String DEFAULT_UPSTREAM = "https://api.anthropic.com";
    public static final int DEFAULT_PORT = 15720;
    public static final int DEFAULT_BIG_CTX_TOKENS = 60_000;
    public static final int DEFAULT_BIG_CTX_CONCURRENCY = 1;

    public ProxyOptions {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1..65535)");
        }
        Objects.requireNonNull(upstream, "upstream");
        if (upstream.isBlank()) {
            throw new IllegalArgumentException("upstream: \"" + upstream + "\" (expected: a URL)");
        }
        Objects.requireNonNull(responsesUpstream, "responsesUpstream");
        if (bigCtxTokens < 0) {
            throw new IllegalArgumentException("bigCtxTokens: " + bigCtxTokens + " (expected: >= 0)");
        }
        if (bigCtxConcurrency < 1) {
            throw new IllegalArgumentException("bigCtxConcurrency: " + bigCtxConcurrency + " (expected: >= 1)");
        }
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(mirrorLog, "mirrorLog");
        Objects.requireNonNull(config, "config");
        if (config.isPresent() && !config.get().isAbsolute()) {
            throw new IllegalArgumentException("config: " + config.get() + " (expected: an absolute path)");
        }
    }

    /** The URL Claude Code is pointed at. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
