package shaper.proxy;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;

/**
 * A provider's last word on the upstream request's headers, like the {@code Rewrite} hook of Go's
 * {@code ReverseProxy}: it runs on the outgoing headers after {@link HeaderPolicy} has copied the
 * end-to-end fields, so hop-by-hop and {@code Connection}-listed fields are already gone and
 * nothing it adds can be removed by the client. Used for credentials (strip the client's, attach
 * the provider's) on plain requests and WebSocket handshakes alike. Implementations are immutable
 * and shared by every request thread; the headers belong to one request.
 */
@FunctionalInterface
public interface HeaderRewrite {
    /** Leaves the headers as {@link HeaderPolicy} copied them. */
    HeaderRewrite NONE = headers -> {
    };

    void apply(WritableHeaders<?> headers);

    /**
     * This rewrite, after removing the client's {@code Content-Encoding}: for a body the proxy
     * decoded and rewrote (a transcoded request, a stale-reasoning replay), which goes upstream as
     * plain bytes with its own length.
     */
    default HeaderRewrite uncoded() {
        return headers -> {
            headers.remove(HeaderNames.CONTENT_ENCODING);
            apply(headers);
        };
    }

    /** Removes field {@code name} (any case): a header meant for the proxy alone, such as the priority header. */
    static HeaderRewrite dropping(String name) {
        HeaderName field = HeaderNames.create(name);
        return headers -> headers.remove(field);
    }

    /** This rewrite, then {@code next}. */
    default HeaderRewrite then(HeaderRewrite next) {
        return headers -> {
            apply(headers);
            next.apply(headers);
        };
    }
}
