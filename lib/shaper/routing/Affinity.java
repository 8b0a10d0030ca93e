package shaper.routing;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Which target last served each session, so the session's next request goes there first and the
 * upstream's prompt cache stays warm. Bounded: at most {@code size} sessions, the least recently
 * used forgotten first, and a session unseen for the TTL is forgotten when next looked up.
 *
 * <p>The lock guards the access-ordered map; every operation is O(1) apart from
 * {@link #forgetProvider}, which a reload calls once.
 */
public final class Affinity {
    private record Entry(String provider, long seenNanos) {
    }

    private final RoutingConfig.AffinityConfig config;
    private final int size;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final LinkedHashMap<String, Entry> table;

    /** @param nanoTime the monotonic clock the TTL is read from (injected so tests move time) */
    public Affinity(RoutingConfig.AffinityConfig config, LongSupplier nanoTime) {
        this.config = config;
        this.size = config.size();
        this.ttlNanos = config.ttl().toNanos();
        this.nanoTime = nanoTime;
        this.table = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > Affinity.this.size;
            }
        };
    }

    /** The provider that last served {@code session}, empty when none or expired. */
    public synchronized Optional<String> get(String session) {
        Entry e = table.get(session);
        if (e == null) {
            return Optional.empty();
        }
        if (nanoTime.getAsLong() - e.seenNanos() > ttlNanos) {
            table.remove(session);
            return Optional.empty();
        }
        return Optional.of(e.provider());
    }

    /** {@code provider} served {@code session} now. */
    public synchronized void served(String session, String provider) {
        table.put(session, new Entry(provider, nanoTime.getAsLong()));
    }

    /** Forgets every session held by {@code provider} (a reload removed it from the routes). */
    public synchronized void forgetProvider(String provider) {
        for (Iterator<Entry> it = table.values().iterator(); it.hasNext();) {
            if (it.next().provider().equals(provider)) {
                it.remove();
            }
        }
    }

    /** The settings this table was built with. */
    public RoutingConfig.AffinityConfig config() {
        return config;
    }

    /** Sessions remembered now. */
    public synchronized int size() {
        return table.size();
    }
}
