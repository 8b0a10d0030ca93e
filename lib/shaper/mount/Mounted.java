package shaper.mount;

/**
 * A request path routed to a mount.
 *
 * @param target        what the matching mount carries (the provider)
 * @param forwardedPath the raw path to send upstream: dot segments resolved, the prefix taken off,
 *                      always starting with {@code /}; every other byte as the client sent it
 */
public record Mounted<T>(T target, String forwardedPath) {
}
