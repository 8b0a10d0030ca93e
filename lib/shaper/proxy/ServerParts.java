package shaper.proxy;

import java.util.Objects;

import shaper.observe.ExchangeTracing;
import shaper.proxy.watch.CallWatch;
import shaper.proxy.watch.SelectorWatch;

/**
 * The server-wide machinery every exchange of every provider shares, built once by the server.
 *
 * @param clientWatch the watch of idle client connections (a queued client that leaves)
 * @param calls       the watch of upstream calls (deadline, client gone)
 * @param stop        set when a graceful stop cuts what still runs
 * @param streams     the platform threads that relay event streams
 * @param tracing     where each exchange's spans come from ({@link ExchangeTracing#OFF} unless {@code -otel}; null means off)
 */
public record ServerParts(SelectorWatch clientWatch, CallWatch calls, StopCut stop, StreamThreads streams, ExchangeTracing tracing) {
    public ServerParts {
        tracing = tracing == null ? ExchangeTracing.OFF : tracing;
        Objects.requireNonNull(clientWatch, "clientWatch");
        Objects.requireNonNull(calls, "calls");
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(streams, "streams");
    }
}
