package shaper.proxy;

import java.util.ArrayList;
import java.util.List;

import io.helidon.http.Header;

/** Copies Helidon headers into the journal's form: one entry per value, names as received. */
public final class JournalHeaders {
    private JournalHeaders() {
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
