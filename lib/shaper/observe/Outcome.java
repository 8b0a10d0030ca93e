package shaper.observe;

/**
 * How one HTTP exchange ended, as the logs and counters report it.
 * <ul>
 *   <li>{@link #CLEAN}: the response was delivered completely.</li>
 *   <li>{@link #ABORTED}: the exchange did not complete: the client left, a downstream write failed,
 *       or the upstream body broke off mid-copy. Never counted as clean, even after a committed 200.</li>
 *   <li>{@link #FAILED}: the proxy answered with its own error (for example 502 for an unreachable upstream).</li>
 *   <li>{@link #LOCAL}: answered by the proxy itself (health), never forwarded.</li>
 * </ul>
 */
public enum Outcome {
    CLEAN, ABORTED, FAILED, LOCAL;

    /** The lowercase spelling, computed once: it is written on every exchange's log line. */
    private final String label = name().toLowerCase(java.util.Locale.ROOT);

    public String label() {
        return label;
    }
}
