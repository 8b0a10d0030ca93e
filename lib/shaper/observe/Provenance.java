package shaper.observe;

import java.util.Locale;

/**
 * Which side an exchange's failure came from, so that the metrics and the operator can tell an
 * upstream outage from a client that left or from the proxy's own answer. {@link #NONE} for an
 * exchange that ended as the upstream meant it to (a relayed 2xx, 3xx, or an upgrade).
 */
public enum Provenance {
    /** Nothing failed. */
    NONE,
    /** The upstream answered with an error status (4xx/5xx), relayed or turned into an error event. */
    UPSTREAM_HTTP,
    /** The upstream could not be reached, or the connection failed before its response headers. */
    UPSTREAM_TRANSPORT,
    /** The upstream's response body broke off after its headers. */
    UPSTREAM_BODY,
    /** The client left (closed the connection or stopped reading) before the exchange completed. */
    CLIENT_ABORT,
    /** The proxy could not convert a request or response between dialects (the transcoder). */
    LOCAL_CONVERSION,
    /** The proxy answered itself: circuit open, queue full or timed out, client key refused, an internal error. */
    LOCAL_ANSWER;

    /** The lowercase spelling, computed once: it is written on every exchange's log line. */
    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
        return label;
    }
}
