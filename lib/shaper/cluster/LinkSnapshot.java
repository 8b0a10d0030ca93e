package shaper.cluster;

/**
 * An immutable view of one Redis link, for health and metrics.
 *
 * @param endpoint    {@code redis://host:port/db}, never with a password
 * @param up          whether cluster limits are in force (false: the fallback is)
 * @param transitions how many times the link went down or came back since start
 * @param fallback    what the limiters do while it is down
 */
public record LinkSnapshot(String endpoint, boolean up, long transitions, RedisFallback fallback) {
}
