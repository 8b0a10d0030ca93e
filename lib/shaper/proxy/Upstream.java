package shaper.proxy;

import java.net.URI;
import java.util.function.LongSupplier;

import shaper.proxy.client.UpstreamClient;

/**
 * One provider's upstream: its base URL and its own HTTP/1.1 client with its connection pool.
 * Bodies are never decoded, redirects never followed and no default headers added, so what the
 * upstream sends is what the client gets.
 */
public final class Upstream {
    private final URI base;
    private final UpstreamClient client;

    /**
     * @param base      the upstream base URL
     * @param poolSize  idle keep-alive connections kept
     * @param keepAlive false for {@code -upstream-disable-keep-alives}: every request on a fresh connection
     * @param nanoTime  the provider's clock, which ages idle connections
     */
    public Upstream(URI base, int poolSize, boolean keepAlive, LongSupplier nanoTime) {
        this.base = base;
        this.client = new UpstreamClient(base, poolSize, keepAlive, nanoTime);
    }

    /** The request target: the raw path and query exactly as given, joined to the base path. */
    String target(String rawPath, String rawQuery) {
        return UpstreamUris.pathAndQuery(base, rawPath, rawQuery);
    }

    public URI base() {
        return base;
    }

    UpstreamClient client() {
        return client;
    }

    public void close() {
        client.close();
    }
}
