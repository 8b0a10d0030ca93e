package shaper.observe;

import java.util.concurrent.atomic.LongAdder;

/**
 * Running totals of finished exchanges for one provider, fed only by {@link ExchangePublisher}
 * from each {@link ExchangeRecord}. Status buckets count any committed status, so an aborted
 * stream that already sent 200 appears both under 2xx and under aborted; a status outside
 * 100–599 (or 0, nothing committed) is in no bucket. Thread-safe.
 */
public final class ExchangeCounters {
    private final LongAdder cleanProxied = new LongAdder();
    private final LongAdder cleanPassthrough = new LongAdder();
    private final LongAdder aborted = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder circuitRejected = new LongAdder();
    private final LongAdder queueRejected = new LongAdder();
    private final LongAdder queueTimeouts = new LongAdder();
    private final LongAdder clientLeft = new LongAdder();
    private final LongAdder upgraded = new LongAdder();
    private final LongAdder[] statusClasses = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

    /** Counts one finished exchange. Called once per record, by the publisher only. */
    void record(ExchangeRecord r) {
        int status = r.status();
        if (status >= 100 && status < 600) {
            statusClasses[status / 100 - 1].increment();
        }
        switch (r.outcome()) {
            case CLEAN -> (r.limited() ? cleanProxied : cleanPassthrough).increment();
            case ABORTED -> aborted.increment();
            case FAILED -> failed.increment();
            case LOCAL -> {
            }
        }
        switch (r.reason()) {
            case CIRCUIT_OPEN -> circuitRejected.increment();
            case QUEUE_FULL -> queueRejected.increment();
            case QUEUE_TIMEOUT -> queueTimeouts.increment();
            case CLIENT_LEFT -> clientLeft.increment();
            case UPGRADED -> upgraded.increment();
            case COMPLETED, UPSTREAM_UNREACHABLE, UPSTREAM_BROKE_OFF, UPSTREAM_ERROR_EVENT, BAD_REDIRECT,
                 CLIENT_KEY_REJECTED, NO_ROUTE, LIMITER_UNAVAILABLE, BAD_INPUT, NOT_MOUNTED, LOCAL_ERROR -> {
            }
        }
    }

    /** Sets every total back to zero (the TUI's reset). */
    public void reset() {
        for (LongAdder a : new LongAdder[]{cleanProxied, cleanPassthrough, aborted, failed, circuitRejected, queueRejected,
                queueTimeouts, clientLeft, upgraded}) {
            a.reset();
        }
        for (LongAdder a : statusClasses) {
            a.reset();
        }
    }

    public Snapshot snapshot() {
        long[] buckets = new long[5];
        for (int i = 0; i < 5; i++) {
            buckets[i] = statusClasses[i].sum();
        }
        return new Snapshot(cleanProxied.sum(), cleanPassthrough.sum(), aborted.sum(), failed.sum(), circuitRejected.sum(),
                queueRejected.sum(), queueTimeouts.sum(), clientLeft.sum(), upgraded.sum(), buckets);
    }

    /**
     * An immutable copy; {@code statusClasses[0]} is 1xx … {@code [4]} is 5xx.
     *
     * @param failed       proxy answers of its own (502, 503, 504, 429 queue full, 401)
     * @param queueTimeouts requests whose queue wait exceeded {@code -queue-timeout}
     * @param clientLeft    exchanges ended because the client left (cancelled by the client)
     * @param upgraded      upgrade handshakes relayed
     */
    public record Snapshot(long cleanProxied, long cleanPassthrough, long aborted, long failed, long circuitRejected,
                           long queueRejected, long queueTimeouts, long clientLeft, long upgraded, long[] statusClasses) {
        public Snapshot {
            statusClasses = statusClasses.clone();
        }

        /** The count of the {@code hundreds}xx bucket, 1–5. */
        public long status(int hundreds) {
            return statusClasses[hundreds - 1];
        }

        @Override
        public long[] statusClasses() {
            return statusClasses.clone();
        }
    }
}
