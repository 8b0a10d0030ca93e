package shaper.cluster;

/**
 * A Redis call did not complete: the link is down, the server is unreachable, or it answered slower
 * than the socket timeout. Callers fall back; the link has already logged the transition.
 */
final class RedisUnavailable extends RuntimeException {
    RedisUnavailable(String message) {
        super(message, null, false, false);
    }
}
