package shaper.proxy;

import java.net.URI;
import java.time.Duration;

import io.helidon.http.encoding.ContentEncodingContext;
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
    private final Http1Client client;

    public Upstream(URI base, int poolSize) {
        this.base = base;
        this.client = Http1Client.builder()
                .shareConnectionCache(false)
                .connectionCacheSize(poolSize)
                .followRedirects(false)
                .sendExpectContinue(false)
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build())
                .socketOptions(s -> s.tcpNoDelay(true).connectTimeout(CONNECT_TIMEOUT).readTimeout(READ_TIMEOUT))
                .build();
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
