package shaper.proxy.ws;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open Responses WebSocket sessions, per provider name: counted up when a session is made, down once
 * when it ends. Kept by the listener across reloads (a session outlives the configuration it opened
 * under); read by the metrics at scrape time. Thread-safe.
 */
public final class SessionGauge {
    private final ConcurrentHashMap<String, AtomicInteger> open = new ConcurrentHashMap<>();

    AtomicInteger of(String provider) {
        return open.computeIfAbsent(provider, p -> new AtomicInteger());
    }

    /** Sessions open now for {@code provider}. */
    public int open(String provider) {
        AtomicInteger n = open.get(provider);
        return n == null ? 0 : n.get();
    }
}
