package shaper.proxy;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.Headers;
import shaper.retry.HeaderLookup;

/**
 * An upstream answer's headers as a {@link HeaderLookup}, for the dozen or so names every answer is
 * asked for (rate-limit families, {@code retry-after}, failure classification) while few of them
 * are ever there. The names present are indexed once; a name that is absent costs one map read,
 * not a Helidon header-name parse and a stream, and a present one gets Helidon's own
 * {@link Headers#values} (every field line, split at commas outside quotes). Belongs to one
 * exchange's thread.
 */
final class UpstreamHeaders implements HeaderLookup {
    private final Headers headers;
    private final Map<String, HeaderName> present;

    private UpstreamHeaders(Headers headers, Map<String, HeaderName> present) {
        this.headers = headers;
        this.present = present;
    }

    static UpstreamHeaders of(Headers headers) {
        Map<String, HeaderName> present = new HashMap<>(headers.size() * 2);
        for (Header h : headers) {
            present.put(h.headerName().lowerCase(), h.headerName());
        }
        return new UpstreamHeaders(headers, present);
    }

    @Override
    public boolean mayHaveNameStartingWith(String lowerCasePrefix) {
        for (String name : present.keySet()) {
            if (name.startsWith(lowerCasePrefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<String> values(String name) {
        HeaderName field = present.get(name.toLowerCase(Locale.ROOT));
        return field == null ? List.of() : headers.values(field);
    }
}
