package shaper.observe;

import java.util.Locale;

/**
 * Why an exchange ended, one value per exit path of the request handler. Each reason names the
 * {@link Provenance} it implies; the counters classify by this type, never by message text.
 */
public enum EndReason {
    /** The answer (of any status) reached the client completely. */
    COMPLETED(Provenance.NONE),
    /** A WebSocket (or other) upgrade handshake was relayed and the tunnel took over. */
    UPGRADED(Provenance.NONE),
    /** The client closed or stopped reading: while queued, during backoff, or mid-response. */
    CLIENT_LEFT(Provenance.CLIENT_ABORT),
    /** No attempt reached the upstream's response headers (connect, write or read failed). */
    UPSTREAM_UNREACHABLE(Provenance.UPSTREAM_TRANSPORT),
    /** The upstream body ended early or its connection failed after the headers. */
    UPSTREAM_BROKE_OFF(Provenance.UPSTREAM_BODY),
    /** An upstream error answer ended a response already committed to the client as an error event. */
    UPSTREAM_ERROR_EVENT(Provenance.UPSTREAM_HTTP),
    /** The breaker was open: 503 (or an error event on a committed stream). */
    CIRCUIT_OPEN(Provenance.LOCAL_ANSWER),
    /** A {@code -queue-depth} bound refused the request: 429. */
    QUEUE_FULL(Provenance.LOCAL_ANSWER),
    /** The wait for a slot exceeded {@code -queue-timeout}: 504. */
    QUEUE_TIMEOUT(Provenance.LOCAL_ANSWER),
    /** The upstream redirected outside the proxy: 502. */
    BAD_REDIRECT(Provenance.LOCAL_ANSWER),
    /** The cluster limiter backend was unreachable and {@code -limiter-redis-fallback closed}: 503. */
    LIMITER_UNAVAILABLE(Provenance.LOCAL_ANSWER),
    /** The routed mount has no route for the request's model: 404 in the client's dialect. */
    NO_ROUTE(Provenance.LOCAL_ANSWER),
    /** A required client key was missing or wrong: 401. */
    CLIENT_KEY_REJECTED(Provenance.LOCAL_ANSWER),
    /** The listener refused a request it could not parse (request line, headers, framing) before any route saw it. */
    BAD_INPUT(Provenance.LOCAL_ANSWER),
    /** No {@code -prefix} mount leads the request's path: 404. */
    NOT_MOUNTED(Provenance.LOCAL_ANSWER),
    /** The proxy cut the exchange because it is stopping (the shutdown grace ran out, or a second signal). */
    PROXY_STOPPED(Provenance.LOCAL_ANSWER),
    /** The proxy itself failed (an exception in the handler). */
    LOCAL_ERROR(Provenance.LOCAL_ANSWER);

    /** The lowercase spelling, computed once: it is written on every exchange's log line. */
    private final String label = name().toLowerCase(Locale.ROOT);

    private final Provenance provenance;

    EndReason(Provenance provenance) {
        this.provenance = provenance;
    }

    /** The provenance this reason implies. */
    public Provenance provenance() {
        return provenance;
    }

    /** The logfmt spelling: {@code queue_timeout}. */
    public String label() {
        return label;
    }
}
