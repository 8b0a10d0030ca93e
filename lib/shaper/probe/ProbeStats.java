package shaper.probe;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the upstream saw: a hit counter per full request path (the flaky fixtures' failure
 * counters: {@code /flaky422/x} and {@code /flaky422/y} count separately) and, per fixture, the
 * requests in flight now and the most seen at once. Thread-safe; {@link #reset} clears hits and
 * brings each peak down to the current in-flight count.
 */
public final class ProbeStats {
    private final ConcurrentHashMap<String, AtomicLong> hits = new ConcurrentHashMap<>();
    private final Map<Fixture, Gauge> gauges = new EnumMap<>(Fixture.class);

    /** A fixture's hits, in-flight and peak, as the stats document shows them. */
    public record PrefixStats(long hits, int inFlight, int peakInFlight) {
    }

    /**
     * @param hits     requests per full path, sorted by path
     * @param prefixes per fixture prefix, in {@link Fixture} order, zeros included
     */
    public record Snapshot(Map<String, Long> hits, Map<String, PrefixStats> prefixes) {
        public long hits(String path) {
            return hits.getOrDefault(path, 0L);
        }

        public PrefixStats prefix(Fixture fixture) {
            return prefixes.get(fixture.prefix());
        }
    }

    private static final class Gauge {
        final AtomicLong hits = new AtomicLong();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
    }

    public ProbeStats() {
        for (Fixture f : Fixture.values()) {
            gauges.put(f, new Gauge());
        }
    }

    /** Counts a request that starts; returns its 1-based ordinal on this path. Pair with {@link #leave}. */
    long enter(Fixture fixture, String path) {
        Gauge g = gauges.get(fixture);
        g.hits.incrementAndGet();
        int now = g.inFlight.incrementAndGet();
        g.peak.accumulateAndGet(now, Math::max);
        return hits.computeIfAbsent(path, p -> new AtomicLong()).incrementAndGet();
    }

    void leave(Fixture fixture) {
        gauges.get(fixture).inFlight.decrementAndGet();
    }

    public void reset() {
        hits.clear();
        for (Gauge g : gauges.values()) {
            g.hits.set(0);
            g.peak.set(g.inFlight.get());
        }
    }

    public Snapshot snapshot() {
        Map<String, Long> byPath = new TreeMap<>();
        hits.forEach((path, n) -> byPath.put(path, n.get()));
        Map<String, PrefixStats> byPrefix = new LinkedHashMap<>();
        gauges.forEach((f, g) -> byPrefix.put(f.prefix(), new PrefixStats(g.hits.get(), g.inFlight.get(), g.peak.get())));
        return new Snapshot(Collections.unmodifiableMap(byPath), Collections.unmodifiableMap(byPrefix));
    }
}
