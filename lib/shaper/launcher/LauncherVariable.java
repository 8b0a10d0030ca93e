package shaper.launcher;

/**
 * Every environment variable the launcher reads: the single source of their names, defaults and
 * the one-line meanings the README table shows.
 */
public enum LauncherVariable {
    PORT("SHAPER_PORT", "15720", "loopback port of the shaper that Claude Code talks to"),
    UPSTREAM("SHAPER_UPSTREAM", ProxyOptions.DEFAULT_UPSTREAM,
            "`-upstream` of a shaper the launcher starts (a local bridge such as cc-switch: `http://127.0.0.1:15721`)"),
    RESPONSES_UPSTREAM("SHAPER_RESPONSES_UPSTREAM", "unset", "`-responses-upstream` of a shaper the launcher starts"),
    BIG_CTX_TOKENS("SHAPER_BIG_CTX_TOKENS", "60000", "`-big-ctx-tokens` of a shaper the launcher starts; 0 disables the gate"),
    BIG_CTX_CONCURRENCY("SHAPER_BIG_CTX_CONCURRENCY", "1", "`-big-ctx-concurrency` of a shaper the launcher starts"),
    LOG("SHAPER_LOG", "`shaper-<port>.log` in `$TMPDIR` (else `/tmp`)",
            "owner-only file that a started shaper's stdout and stderr are appended to"),
    MIRROR_LOG("SHAPER_MIRROR_LOG", "unset", "`-log-file` of a shaper the launcher starts (created owner-only)"),
    CONFIG("SHAPER_CONFIG", "unset",
            "a `-config` file for a shaper the launcher starts: it then runs `-config FILE -bind 127.0.0.1:PORT` and nothing else, so"
                    + " the file decides the rest (`SHAPER_UPSTREAM`, `SHAPER_RESPONSES_UPSTREAM`, `SHAPER_BIG_CTX_*`,"
                    + " `SHAPER_MIRROR_LOG` and the AR-Proxy retry defaults are not applied); it must exist"),
    SETTINGS("SHAPER_SETTINGS", "unset",
            "overlay input (file or inline JSON) when there is no `--settings` and no `~/.claude/retry-proxy.json`; a named file must exist"),
    CLAUDE("SHAPER_CLAUDE", "`claude` on `PATH`", "the real Claude Code executable (set it when your own `claude` wrapper is on PATH)");

    private final String variable;
    private final String defaultText;
    private final String meaning;

    LauncherVariable(String variable, String defaultText, String meaning) {
        this.variable = variable;
        this.defaultText = defaultText;
        this.meaning = meaning;
    }

    /** The environment variable's name, e.g. {@code SHAPER_PORT}. */
    public String variable() {
        return variable;
    }

    public String defaultText() {
        return defaultText;
    }

    public String meaning() {
        return meaning;
    }
}
