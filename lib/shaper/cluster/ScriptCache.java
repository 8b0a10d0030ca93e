package shaper.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Runs the lease scripts by SHA ({@code EVALSHA}), so a call sends a few ids, not the script. A
 * server that does not know a script (after a restart or a failover, or a cluster node that never
 * ran it) gets it loaded and the call repeated; a cluster node reached by an ASK redirection during
 * a slot migration, which the load (routed to the slot's owner) did not reach, gets the script
 * itself ({@code EVAL}). A script that meets its slot in migration ({@code TRYAGAIN}: some of its
 * keys moved, some not yet) is retried with a growing pause within the call timeout: resharding
 * is not an outage. Thread-safe.
 */
final class ScriptCache {
    private final Map<String, String> shas = new ConcurrentHashMap<>();

    Object run(UnifiedJedis client, String script, List<String> keys, List<String> args, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pauseMs = 2;
        while (true) {
            try {
                return runOnce(client, script, keys, args);
            } catch (JedisDataException e) {
                if (!String.valueOf(e.getMessage()).startsWith("TRYAGAIN") || System.nanoTime() + pauseMs * 1_000_000 >= deadline) {
                    throw e;
                }
            }
            try {
                Thread.sleep(pauseMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisUnavailable("interrupted");
            }
            pauseMs = Math.min(100, pauseMs * 2);
        }
    }

    private Object runOnce(UnifiedJedis client, String script, List<String> keys, List<String> args) {
        String sha = shas.computeIfAbsent(script, s -> client.scriptLoad(s, keys.getFirst()));
        try {
            return client.evalsha(sha, keys, args);
        } catch (JedisNoScriptException e) {
            client.scriptLoad(script, keys.getFirst());
            try {
                return client.evalsha(sha, keys, args);
            } catch (JedisNoScriptException again) {
                return client.eval(script, keys, args);
            }
        }
    }
}
