package shaper.proxy;

import java.net.URI;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Keeps clients that follow redirects inside the proxy: a {@code Location} that stays on the
 * upstream's origin, under its base path and on the same route is rewritten to the proxy's own path;
 * any other target is refused (the proxy answers {@code 502}), so a client is never sent around it
 * to an origin it would reach without the proxy's retries and credentials.
 */
final class Redirects {
    private Redirects() {
    }

    /**
     * @param location  the upstream's {@code Location} value
     * @param requested the absolute upstream URL of the request that was redirected
     * @param base      the upstream base URL that request used
     * @param sameRoute whether a proxy path (without mount prefix) is still served by {@code base}
     * @return the proxy-relative location, or empty when the redirect must be refused
     */
    static Optional<String> rewrite(String location, URI requested, URI base, Predicate<String> sameRoute) {
        URI target;
        try {
            target = requested.resolve(location.trim());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!sameOrigin(target, base)) {
            return Optional.empty();
        }
        String basePath = base.getRawPath() == null ? "" : base.getRawPath();
        if (basePath.endsWith("/")) {
            basePath = basePath.substring(0, basePath.length() - 1);
        }
        String path = target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
        if (!basePath.isEmpty() && !(path.equals(basePath) || path.startsWith(basePath + "/"))) {
            return Optional.empty();
        }
        String proxyPath = path.substring(basePath.length());
        if (proxyPath.isEmpty()) {
            proxyPath = "/";
        }
        if (!sameRoute.test(proxyPath)) {
            return Optional.empty();
        }
        String query = target.getRawQuery();
        return Optional.of(query == null ? proxyPath : proxyPath + "?" + query);
    }

    private static boolean sameOrigin(URI a, URI b) {
        return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
                && port(a) == port(b);
    }

    private static int port(URI u) {
        return u.getPort() >= 0 ? u.getPort() : (u.getScheme().equalsIgnoreCase("https") ? 443 : 80);
    }
}
