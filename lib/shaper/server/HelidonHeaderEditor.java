package shaper.server;

import java.util.ArrayList;
import java.util.List;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.WritableHeaders;
import shaper.auth.HeaderEditor;
import shaper.auth.HeaderView;

/** The auth package's view of Helidon headers; names compare case-insensitively, as Helidon's do. */
final class HelidonHeaderEditor implements HeaderEditor {
    private final WritableHeaders<?> headers;

    HelidonHeaderEditor(WritableHeaders<?> headers) {
        this.headers = headers;
    }

    /** A read-only view, for checking a client key on the incoming request. */
    static HeaderView view(Headers headers) {
        return name -> headers.values(HeaderNames.create(name));
    }

    @Override
    public List<String> values(String name) {
        return headers.values(HeaderNames.create(name));
    }

    @Override
    public List<String> names() {
        List<String> names = new ArrayList<>(headers.size());
        for (Header h : headers) {
            names.add(h.name());
        }
        return names;
    }

    @Override
    public void remove(String name) {
        headers.remove(HeaderNames.create(name));
    }

    @Override
    public void add(String name, String value) {
        headers.add(HeaderValues.create(HeaderNames.create(name), value));
    }
}
