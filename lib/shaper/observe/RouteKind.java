package shaper.observe;

import java.util.Locale;

/**
 * How the limiters treated an exchange. {@link #LIMITED} held a route or default-pool slot (it counts
 * as "proxied"); {@link #PASSTHROUGH} matched no limited route (it may still have waited on the global
 * limiter); {@link #UNLIMITED} matched a {@code :unlimited} route and touched no limiter. The spec
 * counts unlimited traffic as passthrough in metrics and the TUI; the record keeps the difference.
 */
public enum RouteKind {
    LIMITED, PASSTHROUGH, UNLIMITED;

    /** The lowercase spelling, computed once: it is written on every exchange's log line. */
    private final String label = name().toLowerCase(Locale.ROOT);

    /** True for the two kinds the counters report as passthrough. */
    public boolean countsAsPassthrough() {
        return this != LIMITED;
    }

    public String label() {
        return label;
    }
}
