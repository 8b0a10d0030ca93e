package shaper.observe;

import java.util.function.Function;

/**
 * Where exchanges' spans come from: one per server, {@link #OFF} unless tracing is switched on.
 */
public interface ExchangeTracing {
    /** Tracing off: every exchange gets {@link ExchangeSpans#NONE}. */
    ExchangeTracing OFF = (provider, method, path, header) -> ExchangeSpans.NONE;

    /**
     * The spans of one arriving exchange.
     *
     * @param provider the provider serving it
     * @param method   the request method
     * @param path     the forwarded path (no query: a query may carry a key)
     * @param header   the client's header fields by name (first value, null when absent), to continue its trace
     */
    ExchangeSpans begin(String provider, String method, String path, Function<String, String> header);
}
