package shaper.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A request exactly as it arrived on the upstream's socket.
 *
 * @param method  request method
 * @param target  raw request target (path and query, undecoded)
 * @param headers header fields in arrival order, names in the case they were sent
 * @param chunked whether the body came with {@code Transfer-Encoding: chunked}
 * @param body    the de-framed body bytes
 */
public record RecordedRequest(String method, String target, List<Header> headers, boolean chunked, byte[] body) {
    public record Header(String name, String value) {
    }

    /** All values of a field, case-insensitively. */
    public List<String> values(String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).toList();
    }

    public String header(String name) {
        List<String> v = values(name);
        return v.isEmpty() ? null : v.getFirst();
    }

    public boolean has(String name) {
        return !values(name).isEmpty();
    }

    public List<String> names() {
        return headers.stream().map(h -> h.name().toLowerCase(Locale.ROOT)).toList();
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
