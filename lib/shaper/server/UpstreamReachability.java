package shaper.server;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import shaper.config.UpstreamUrl;
import shaper.observe.ExchangeLog;
import shaper.proxy.client.Reachability;
import shaper.settings.ProviderConfig;

/**
 * One look at each upstream right after startup ({@link Reachability}), in the background, and one
 * log line for each that cannot be reached. It never blocks the start and never fails it (an
 * upstream may come up later, and requests then just work); it turns a mistyped {@code -upstream}
 * into a line on the first screen instead of a puzzle at the first request.
 */
final class UpstreamReachability {
    /** Long enough for a slow DNS answer and a far-away port, short enough to be read before the first request. */
    static final Duration BOUND = Duration.ofSeconds(5);

    private UpstreamReachability() {
    }

    /** Starts the looks on one virtual thread (which never keeps the JVM alive). */
    static void checkInBackground(List<ProviderConfig> providers, ExchangeLog log) {
        Map<URI, String> upstreams = of(providers);
        Thread.ofVirtual().name("shaper-upstream-check").start(() -> upstreams.forEach((uri, who) -> {
            try {
                Optional<String> problem = Reachability.problem(uri, BOUND);
                problem.ifPresent(p -> log.info("upstream check: " + who + " " + UpstreamUrl.display(uri) + " cannot be reached: " + p
                        + " (the proxy runs; its requests fail until the upstream is up)"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
    }

    /** The upstreams of {@code providers} (each URL once), each with who named it for the log line. */
    private static Map<URI, String> of(List<ProviderConfig> providers) {
        Map<URI, String> all = new LinkedHashMap<>();
        for (ProviderConfig p : providers) {
            all.putIfAbsent(p.upstream(), "provider=" + p.name() + " -upstream");
            if (p.gateway().responsesUpstream() != null) {
                all.putIfAbsent(p.gateway().responsesUpstream(), "provider=" + p.name() + " -responses-upstream");
            }
        }
        return all;
    }
}
