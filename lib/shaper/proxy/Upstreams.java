package shaper.proxy;

import java.net.URI;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import shaper.proxy.client.Dialing;
import shaper.proxy.client.Pooling;
import shaper.proxy.client.UpstreamClient;
import shaper.proxy.client.UpstreamTls;

/**
 * A provider's upstreams: the main one, and optionally {@code -responses-upstream} for the paths
 * whose wire the Responses models speak ({@code /v1/responses}, {@code /v1/responses/...},
 * {@code /v1/models}, {@code /v1/models/...}, {@code /api/pricing}); and how a request is joined onto
 * an upstream base URL ({@link #pathAndQuery}).
 *
 * @param responses   null when all paths use {@code main}
 * @param mountPrefix the provider's mount on the proxy ({@code ""} for the bare root), put in front of rewritten redirects
 */
public record Upstreams(Upstream main, Upstream responses, String mountPrefix) {
    /**
     * One upstream: its base URL and its own HTTP/1.1 client with its connection pool. Bodies are
     * never decoded, redirects never followed and no default headers added, so what the upstream
     * sends is what the client gets.
     */
    public static final class Upstream {
        private final URI base;
        private final UpstreamClient client;
        /** How its connections are opened; its TLS setup ({@link UpstreamTls}) is an upgrade's own socket's too. */
        private final Dialing dialing;
        /** The last call's transport failure in words, null once the upstream answered again. */
        private volatile String unreachable;

        /**
         * @param base     the upstream base URL
         * @param pooling  idle keep-alive connections kept, and for how long
         * @param dialing  how its connections are opened: the forward proxy, TLS trust and client key
         * @param nanoTime the provider's clock, which ages idle connections
         * @param notices  where the client logs a request it sent once more on a fresh connection
         */
        public Upstream(URI base, Pooling pooling, Dialing dialing, LongSupplier nanoTime, Consumer<String> notices) {
            this.base = base;
            this.dialing = dialing;
            this.client = new UpstreamClient(base, pooling, dialing, nanoTime, notices);
        }

        /** The request target: the raw path and query exactly as given, joined to the base path. */
        String target(String rawPath, String rawQuery) {
            return pathAndQuery(base, rawPath, rawQuery);
        }

        public URI base() {
            return base;
        }

        UpstreamClient client() {
            return client;
        }

        /** How its connections are opened (a reload keeps the pools only when this is equal). */
        public Dialing dialing() {
            return dialing;
        }

        /** The base URL as safe to print (no query). */
        public String display() {
            return shaper.config.UpstreamUrl.display(base);
        }

        /** A call could not reach it: {@code cause} in words. */
        void unreachable(String cause) {
            unreachable = cause;
        }

        /** It answered (any status): it is reachable. */
        void answered() {
            if (unreachable != null) {
                unreachable = null;
            }
        }

        public void close() {
            client.close();
        }
    }

    /** Where one call goes: the upstream, and the raw path and query sent to it. */
    record Destination(Upstream upstream, String path, String query) {
    }

    /**
     * The last transport failure of an upstream that has not answered since, as
     * {@code upstream unreachable: CAUSE (URL)}; empty when every upstream's last call got an answer.
     * A circuit opened while this is present was opened by transport errors, not by an overloaded upstream.
     */
    java.util.Optional<String> unreachable() {
        for (Upstream u : responses == null ? java.util.List.of(main) : java.util.List.of(main, responses)) {
            String cause = u.unreachable;
            if (cause != null) {
                return java.util.Optional.of("upstream unreachable: " + cause + " (" + u.display() + ")");
            }
        }
        return java.util.Optional.empty();
    }

    public Upstream forPath(String rawPath) {
        return responses != null && isResponsesPath(rawPath) ? responses : main;
    }

    /** The call's destination for {@code rawPath} and {@code rawQuery} (null or empty for none). */
    Destination destination(String rawPath, String rawQuery) {
        return new Destination(forPath(rawPath), rawPath, rawQuery == null ? "" : rawQuery);
    }

    static boolean isResponsesPath(String rawPath) {
        String p = rawPath.toLowerCase(Locale.ROOT);
        return under(p, "/v1/responses") || under(p, "/v1/models") || p.equals("/api/pricing");
    }

    private static boolean under(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    public void close() {
        main.close();
        if (responses != null) {
            responses.close();
        }
    }

    /**
     * The raw target {@code path[?query]} to send upstream, joined the way Go's
     * {@code ReverseProxy.SetURL} joins it: the base path and the request path meet with exactly one
     * slash, percent-encoding is kept byte for byte (nothing is decoded or canonicalised), and the
     * base query comes before the client's query; {@code rawQuery} may be null or empty.
     */
    public static String pathAndQuery(URI base, String rawPath, String rawQuery) {
        String basePath = base.getRawPath() == null ? "" : base.getRawPath();
        String path = joinPaths(basePath, rawPath.isEmpty() ? "/" : rawPath);
        String baseQuery = base.getRawQuery();
        boolean hasBase = baseQuery != null && !baseQuery.isEmpty();
        boolean hasClient = rawQuery != null && !rawQuery.isEmpty();
        if (hasBase && hasClient) {
            return path + "?" + baseQuery + "&" + rawQuery;
        }
        if (hasBase) {
            return path + "?" + baseQuery;
        }
        return hasClient ? path + "?" + rawQuery : path;
    }

    private static String joinPaths(String a, String b) {
        if (a.isEmpty()) {
            return b;
        }
        boolean aSlash = a.endsWith("/");
        boolean bSlash = b.startsWith("/");
        if (aSlash && bSlash) {
            return a + b.substring(1);
        }
        if (!aSlash && !bSlash) {
            return a + "/" + b;
        }
        return a + b;
    }
}
