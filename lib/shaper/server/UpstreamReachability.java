package shaper.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import shaper.config.UpstreamUrl;
import shaper.observe.ExchangeLog;
import shaper.proxy.TransportErrors;

/**
 * One look at each upstream right after startup: resolve its host and open a TCP connection, in
 * the background, and log one line for each that cannot be reached. It never blocks the start and
 * never fails it (an upstream may come up later, and requests then just work); it only turns a
 * mistyped {@code -upstream} into a line on the first screen instead of a puzzle at the first
 * request. Nothing is sent on the connection.
 */
final class UpstreamReachability {
    /** Long enough for a slow DNS answer and a far-away TLS port, short enough to be read before the first request. */
    static final Duration CONNECT_BOUND = Duration.ofSeconds(5);

    private UpstreamReachability() {
    }

    /**
     * Starts the checks on virtual threads (which never keep the JVM alive).
     *
     * @param upstreams the flag ({@code -upstream}, {@code -responses-upstream}) and provider of each URL, keyed by URL
     */
    static void checkInBackground(Map<URI, String> upstreams, ExchangeLog log) {
        upstreams.forEach((uri, who) -> Thread.ofVirtual().name("shaper-upstream-check").start(() -> check(uri, who, log)));
    }

    /** The upstreams of {@code providers} (each URL once), each with who named it for the log line. */
    static Map<URI, String> of(List<shaper.settings.ProviderConfig> providers) {
        Map<URI, String> all = new LinkedHashMap<>();
        for (shaper.settings.ProviderConfig p : providers) {
            all.putIfAbsent(p.upstream(), "provider=" + p.name() + " -upstream");
            if (p.gateway().responsesUpstream() != null) {
                all.putIfAbsent(p.gateway().responsesUpstream(), "provider=" + p.name() + " -responses-upstream");
            }
        }
        return all;
    }

    private static void check(URI uri, String who, ExchangeLog log) {
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), port), (int) CONNECT_BOUND.toMillis());
        } catch (IOException | RuntimeException e) {
            log.info("upstream check: " + who + " " + UpstreamUrl.display(uri) + " cannot be reached: " + TransportErrors.words(e)
                    + " (the proxy runs; its requests fail until the upstream is up)");
        }
    }
}
