package shaper.proxy.client;

import java.time.Duration;

import io.helidon.http.ClientResponseHeaders;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;

/**
 * The idle limit an upstream announces with {@code Keep-Alive: timeout=N} (the field of RFC 2068
 * section 19.7.1 that Node's, Apache's and many other servers still send): whole seconds after
 * which it closes an idle connection. The proxy reuses such a connection only while it idled less
 * than N minus one second, the margin for the time between the upstream writing its answer (when
 * its clock starts) and the proxy reading the last byte of it (when the proxy's does).
 */
final class KeepAliveTimeout {
    private static final HeaderName KEEP_ALIVE = HeaderNames.create("Keep-Alive");
    private static final Duration MARGIN = Duration.ofSeconds(1);

    private KeepAliveTimeout() {
    }

    /** The reuse limit the answer announces, {@link Duration#ZERO} for one under the margin, or null when it announces none. */
    static Duration of(ClientResponseHeaders headers) {
        if (!headers.contains(KEEP_ALIVE)) {
            return null;
        }
        for (String value : headers.get(KEEP_ALIVE).allValues()) {
            for (String part : value.split(",")) {
                String p = part.strip();
                if (p.regionMatches(true, 0, "timeout=", 0, 8)) {
                    String n = p.substring(8).strip();
                    if (n.isEmpty() || n.length() > 9 || !n.chars().allMatch(c -> c >= '0' && c <= '9')) {
                        return null; // not a number of seconds: as if unannounced
                    }
                    Duration limit = Duration.ofSeconds(Long.parseLong(n)).minus(MARGIN);
                    return limit.isNegative() ? Duration.ZERO : limit;
                }
            }
        }
        return null;
    }
}
