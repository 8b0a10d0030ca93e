package shaper.proxy;

import java.net.URI;

/**
 * Joins a request onto an upstream base URL the way Go's {@code ReverseProxy.SetURL} does: the base
 * path and the request path meet with exactly one slash, percent-encoding is kept byte for byte
 * (nothing is decoded or canonicalised), and the base query comes before the client's query.
 */
public final class UpstreamUris {
    private UpstreamUris() {
    }

    /** The raw target {@code path[?query]} to send upstream; {@code rawQuery} may be null or empty. */
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

    static String joinPaths(String a, String b) {
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
