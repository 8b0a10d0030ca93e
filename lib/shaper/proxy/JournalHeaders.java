package shaper.proxy;

import java.util.ArrayList;
import java.util.List;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;

/** Copies Helidon headers into the journal's form: one entry per value, names as received. */
public final class JournalHeaders {
    private JournalHeaders() {
    }

    /** What the journal shows in place of a value the proxy's credential step set. */
    static final String SET_BY_PROXY = "(set by the proxy; value hidden)";

    /**
     * The headers as sent upstream ({@code sent}), with the value of every field the proxy's own
     * steps set (a value the client did not send under that name) hidden, so an injected secret
     * never reaches the journal while its name does. {@code Content-Length}, which the proxy
     * computes from the body, is shown. One pass over what was sent; the client's fields are
     * looked up only for the names sent.
     */
    static List<shaper.observe.Header> sent(Headers client, Iterable<Header> sent) {
        List<shaper.observe.Header> out = new ArrayList<>();
        for (Header h : sent) {
            HeaderName name = h.headerName();
            boolean proxyComputed = name.equals(HeaderNames.CONTENT_LENGTH);
            List<String> clientValues = proxyComputed || !client.contains(name) ? List.of() : client.get(name).allValues();
            for (String v : h.allValues()) {
                boolean shown = proxyComputed || clientValues.contains(v);
                out.add(new shaper.observe.Header(h.name(), shown ? v : SET_BY_PROXY));
            }
        }
        return out;
    }

    public static List<shaper.observe.Header> of(Iterable<Header> headers) {
        List<shaper.observe.Header> out = new ArrayList<>();
        for (Header h : headers) {
            for (String v : h.allValues()) {
                out.add(new shaper.observe.Header(h.name(), v));
            }
        }
        return out;
    }
}
