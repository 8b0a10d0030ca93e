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

    /** True for the two kinds the counters report as passthrough. */
    public boolean countsAsPassthrough() {
        return this != LIMITED;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
