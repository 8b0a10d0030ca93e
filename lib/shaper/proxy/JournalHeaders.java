package shaper.proxy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.helidon.http.Header;

/** Copies Helidon headers into the journal's form: one entry per value, names as received. */
public final class JournalHeaders {
    private JournalHeaders() {
    }

    /** What the journal shows in place of a value the proxy's credential step set. */
    static final String SET_BY_PROXY = "(set by the proxy; value hidden)";

    /**
     * The headers as sent upstream ({@code after}), with the value of every field the credential step
     * added or replaced (any field not in {@code before} with that exact value) hidden, so an injected
     * secret never reaches the journal while its name does.
     */
    static List<shaper.observe.Header> sent(List<shaper.observe.Header> before, List<shaper.observe.Header> after) {
        Set<String> kept = new HashSet<>();
        for (shaper.observe.Header h : before) {
            kept.add(h.name().toLowerCase(Locale.ROOT) + "\n" + h.value());
        }
        List<shaper.observe.Header> out = new ArrayList<>(after.size());
        for (shaper.observe.Header h : after) {
            boolean unchanged = kept.contains(h.name().toLowerCase(Locale.ROOT) + "\n" + h.value());
            out.add(unchanged ? h : new shaper.observe.Header(h.name(), SET_BY_PROXY));
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
