package shaper.cluster;

/** What a cluster limiter does while its Redis is unreachable or too slow ({@code -limiter-redis-fallback}). */
public enum RedisFallback {
    /** Each instance admits up to its own in-process limit (the cluster total can reach instances × limit). */
    LOCAL,
    /** New requests get a {@code 503} in the client's dialect; waiters queued in Redis get it too. */
    CLOSED;

    /** Parses the flag value ({@code local} or {@code closed}, any case). */
    public static RedisFallback parse(String value) {
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "local" -> LOCAL;
            case "closed" -> CLOSED;
            default -> throw new shaper.config.ConfigException(
                    "-limiter-redis-fallback: " + value + " (expected: local or closed)");
        };
    }
}
