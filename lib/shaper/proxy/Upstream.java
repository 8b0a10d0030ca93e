package shaper.proxy;

import java.net.URI;
import java.time.Duration;

import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.http1.Http1Client;

/**
 * One provider's upstream: its base URL and its own HTTP/1.1 connection pool. Bodies are never
 * decoded, redirects never followed and no default headers added, so what the upstream sends is
 * what the client gets.
 */
public final class Upstream {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(10);

    private final URI base;
    private final int port;
    private final boolean keepAlive;
    private final Http1Client client;

    /**
     * @param base      the upstream base URL
     * @param poolSize  idle keep-alive connections kept
     * @param keepAlive false for {@code -upstream-disable-keep-alives}: every request on a fresh connection
     */
    public Upstream(URI base, int poolSize, boolean keepAlive) {
        this.base = base;
        this.keepAlive = keepAlive;
        this.port = base.getPort() >= 0 ? base.getPort() : (base.getScheme().equalsIgnoreCase("https") ? 443 : 80);
        this.client = Http1Client.builder()
                .shareConnectionCache(false)
                .connectionCacheSize(poolSize)
                .followRedirects(false)
                .sendExpectContinue(false)
                .proxy(Proxy.noProxy())
                .addService(new ClientHeaderGuard())
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build())
                .socketOptions(s -> s.tcpNoDelay(true).connectTimeout(CONNECT_TIMEOUT).readTimeout(READ_TIMEOUT))
                .build();
    }

    /**
     * The request URI with the raw path and query exactly as given. Helidon's {@code ClientUri}
     * would decode and re-encode a path (turning {@code %2F} into {@code /}) and reorder a query,
     * so the joined target goes in as one pre-encoded path that is written verbatim.
     */
    ClientUri requestUri(String rawPath, String rawQuery) {
        return ClientUri.create()
                .scheme(base.getScheme())
                .host(base.getHost())
                .port(port)
                .skipUriEncoding(true)
                .resolvePath(UpstreamUris.pathAndQuery(base, rawPath, rawQuery));
    }

    boolean keepAlive() {
        return keepAlive;
    }

    public URI base() {
        return base;
    }

    Http1Client client() {
        return client;
    }

    public void close() {
        client.closeResource();
    }
}
