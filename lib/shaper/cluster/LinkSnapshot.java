package shaper.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable view of one provider's Redis link, for health and metrics. Never holds a secret.
 *
 * @param endpoint       the {@code -limiter-backend} URL as parsed (never with a password)
 * @param kind           {@code redis}, {@code rediss}, {@code redis-sentinel} or {@code redis-cluster}
 * @param up             whether cluster limits are in force (false: the fallback is)
 * @param transitions    how many times the link went down or came back since start
 * @param fallback       what the limiters do while it is down
 * @param current        the server the scripts run on ({@code host:port}; for Sentinel the current
 *                       master, for a cluster its known nodes), or null before the first connection
 * @param lastFailure    why the link is down, or null while it is up
 * @param clusterWaiters requests queued in Redis by every instance, all of the provider's limiters;
 *                       -1 while unknown (Redis unreachable, or not asked)
 */
public record LinkSnapshot(String endpoint, String kind, boolean up, long transitions, RedisFallback fallback, String current,
                           String lastFailure, long clusterWaiters) {

    /** The same with the cluster-wide queue filled in. */
    LinkSnapshot withClusterWaiters(long waiters) {
        return new LinkSnapshot(endpoint, kind, up, transitions, fallback, current, lastFailure, waiters);
    }

    /** The health route's {@code limiter} object of a clustered provider. */
    public Map<String, Object> health() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", kind);
        m.put("endpoint", endpoint);
        m.put("state", up ? "up" : "fallback");
        m.put("up", up);
        m.put("fallback", fallback.name().toLowerCase(java.util.Locale.ROOT));
        m.put(kind.equals("redis-cluster") ? "nodes" : "master", current);
        if (lastFailure != null) {
            m.put("error", lastFailure);
        }
        m.put("transitions", transitions);
        return m;
    }
}
