package shaper.observe;

import java.util.concurrent.atomic.LongAdder;

/**
 * Running totals of finished exchanges for one provider. Status buckets count any committed status,
 * so an aborted stream that already sent 200 appears both under 2xx and under aborted. Thread-safe.
 */
public final class ExchangeCounters {
    private final LongAdder cleanProxied = new LongAdder();
    private final LongAdder cleanPassthrough = new LongAdder();
    private final LongAdder aborted = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder circuitRejected = new LongAdder();
    private final LongAdder queueRejected = new LongAdder();
    private final LongAdder[] statusClasses = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

    /** Records one finished exchange; {@code status} is 0 when none was committed, {@code limited} when it held a slot. */
    public void record(int status, Outcome outcome, boolean limited) {
        if (status >= 100 && status < 600) {
            statusClasses[status / 100 - 1].increment();
        }
        switch (outcome) {
            case CLEAN -> (limited ? cleanProxied : cleanPassthrough).increment();
            case ABORTED -> aborted.increment();
            case FAILED -> failed.increment();
            case LOCAL -> {
            }
        }
    }

    /** A request refused with 503 because the circuit was open. */
    public void circuitRejected() {
        circuitRejected.increment();
    }

    /** A request refused with 429 by a {@code -queue-depth} bound. */
    public void queueRejected() {
        queueRejected.increment();
    }

    public Snapshot snapshot() {
        long[] buckets = new long[5];
        for (int i = 0; i < 5; i++) {
            buckets[i] = statusClasses[i].sum();
        }
        return new Snapshot(cleanProxied.sum(), cleanPassthrough.sum(), aborted.sum(), failed.sum(), circuitRejected.sum(),
                queueRejected.sum(), buckets);
    }

    /** An immutable copy; {@code statusClasses[0]} is 1xx … {@code [4]} is 5xx. */
    public record Snapshot(long cleanProxied, long cleanPassthrough, long aborted, long failed, long circuitRejected,
                           long queueRejected, long[] statusClasses) {
        public long status(int hundreds) {
            return statusClasses[hundreds - 1];
        }
    }
}
