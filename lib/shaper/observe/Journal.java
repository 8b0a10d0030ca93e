package shaper.observe;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One provider's recent exchanges (a bounded ring of immutable records, newest first) and the
 * exchanges still in flight. It feeds the TUI's Requests and Network views and detail overlay.
 *
 * <p>Capacity follows the spec: {@code min(512, 512 MiB / (2 × retryMaxBody))}, 51 entries at the
 * default 5 MiB. The records here keep bounded body previews ({@link BodyPreview#LIMIT}), so the
 * ring costs far less than that rule budgets for.
 *
 * <p>Thread-safe: the ring is guarded by its own monitor (one short critical section per finished
 * exchange); the in-flight set is a concurrent map. Snapshots are immutable copies.
 */
public final class Journal {
    public static final int DEFAULT_CAPACITY = 512;
    /**
     * The in-flight view lists at most this many exchanges (the oldest first), so a frame or a scrape
     * copies a bounded list however many requests a flood leaves waiting.
     */
    public static final int IN_FLIGHT_VIEW_LIMIT = 256;
    private static final long BUDGET_BYTES = 512L * 1024 * 1024;
    private static final long FALLBACK_CAPTURE = 1024L * 1024;

    private final String provider;
    private final ExchangeRecord[] ring;
    private final InstantSource wall;
    private final LongSupplier nanoTime;
    private final TraceArrival.Clock clock;
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<Long, ExchangeTrace> live = new ConcurrentHashMap<>();
    private int next;
    private int size;

    /**
     * @param capacity records kept (see {@link #capacityFor})
     * @param wall     wall clock for arrival times shown to people
     * @param nanoTime monotonic clock for every duration
     */
    public Journal(String provider, int capacity, InstantSource wall, LongSupplier nanoTime) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: > 0)");
        }
        this.provider = provider;
        this.ring = new ExchangeRecord[capacity];
        this.wall = wall;
        this.nanoTime = nanoTime;
        this.clock = new TraceArrival.Clock(wall, nanoTime);
    }

    /** A journal on the system clocks. */
    public Journal(String provider, int capacity) {
        this(provider, capacity, InstantSource.system(), System::nanoTime);
    }

    /**
     * The spec's capacity rule: {@code min(512, 512 MiB / (2 × capture))} with capture =
     * {@code retryMaxBodyBytes}, or 1 MiB when that is 0; never below 1.
     */
    public static int capacityFor(long retryMaxBodyBytes) {
        long capture = retryMaxBodyBytes > 0 ? retryMaxBodyBytes : FALLBACK_CAPTURE;
        return (int) Math.max(1, Math.min(DEFAULT_CAPACITY, BUDGET_BYTES / (2 * capture)));
    }

    /** Starts tracing an arriving exchange; it is in flight until {@link ExchangeTrace#finish}. */
    public ExchangeTrace begin(String method, String path, String query) {
        ExchangeTrace t = new ExchangeTrace(this, ids.incrementAndGet(), provider, new TraceArrival(method, path, query), clock);
        live.put(t.id(), t);
        return t;
    }

    /** A trace that belongs to no journal (an exchange no provider owns, logged only). */
    public static ExchangeTrace detached(String provider, String method, String path) {
        return new ExchangeTrace(null, 0, provider, new TraceArrival(method, path, ""),
                new TraceArrival.Clock(InstantSource.system(), System::nanoTime));
    }

    /** Takes in a trace that began in another journal; returns its number here. */
    long adopt(ExchangeTrace trace) {
        long id = ids.incrementAndGet();
        live.put(id, trace);
        return id;
    }

    /** The provider whose exchanges this journal keeps. */
    public String provider() {
        return provider;
    }

    void left(ExchangeTrace trace) {
        live.remove(trace.id());
    }

    /** Appends a finished record, overwriting the oldest once full. */
    void add(ExchangeRecord record) {
        synchronized (ring) {
            ring[next] = record;
            next = (next + 1) % ring.length;
            size = Math.min(size + 1, ring.length);
        }
    }

    /** The kept records, newest first; an immutable snapshot. */
    public List<ExchangeRecord> recent() {
        ExchangeRecord[] copy;
        int n;
        int last;
        synchronized (ring) {
            copy = ring.clone();
            n = size;
            last = next;
        }
        List<ExchangeRecord> out = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            out.add(copy[Math.floorMod(last - i, copy.length)]);
        }
        return List.copyOf(out);
    }

    /** Exchanges not finished yet, oldest first, at most {@link #IN_FLIGHT_VIEW_LIMIT}; an immutable snapshot. */
    public List<InFlight> inFlight() {
        long now = nanoTime.getAsLong();
        return live.values().stream()
                .map(t -> t.view(now))
                .sorted(Comparator.comparingLong(InFlight::id))
                .limit(IN_FLIGHT_VIEW_LIMIT)
                .toList();
    }

    /** Every exchange waiting for a slot right now, oldest first (unbounded: the metrics' per-route view). */
    public List<InFlight> queued() {
        long now = nanoTime.getAsLong();
        return live.values().stream()
                .filter(ExchangeTrace::queued)
                .map(t -> t.view(now))
                .sorted(Comparator.comparingLong(InFlight::id))
                .toList();
    }

    /** Exchanges waiting for admission now (slots or tokens), counted without building views. */
    public int queuedCount() {
        return (int) live.values().stream().filter(ExchangeTrace::queued).count();
    }

    /** Exchanges past admission and not finished ({@code shaper_active}). */
    public int activeCount() {
        int n = 0;
        for (ExchangeTrace t : live.values()) {
            if (!t.queued()) {
                n++;
            }
        }
        return n;
    }

    /** Exchanges on a second or later attempt or in a retry backoff right now ({@code shaper_retries_in_flight}). */
    public int retriesInFlight() {
        int n = 0;
        for (ExchangeTrace t : live.values()) {
            if (t.retrying()) {
                n++;
            }
        }
        return n;
    }

    public int capacity() {
        return ring.length;
    }

    /** Forgets the kept records (the TUI's reset); exchanges in flight are not touched. */
    public void clear() {
        synchronized (ring) {
            java.util.Arrays.fill(ring, null);
            next = 0;
            size = 0;
        }
    }
}
