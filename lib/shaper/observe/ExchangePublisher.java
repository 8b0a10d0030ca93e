package shaper.observe;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where every finished exchange of one provider goes, in the spec's order: the journal first,
 * then the counters and the metrics, then the log line. This is the only place an exchange is
 * counted; handlers build one {@link ExchangeRecord} and hand it here once.
 */
public final class ExchangePublisher {
    private final Journal journal;
    private final ExchangeCounters counters;
    private final Consumer<ExchangeRecord> metrics;
    private final ExchangeLog log;

    /**
     * @param metrics observes each record after the counters (the histograms); a no-op without {@code -metrics-bind}
     */
    public ExchangePublisher(Journal journal, ExchangeCounters counters, Consumer<ExchangeRecord> metrics, ExchangeLog log) {
        this.journal = Objects.requireNonNull(journal, "journal");
        this.counters = Objects.requireNonNull(counters, "counters");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.log = Objects.requireNonNull(log, "log");
    }

    public void publish(ExchangeRecord record) {
        journal.add(record);
        counters.record(record);
        metrics.accept(record);
        log.exchange(record);
    }

    public Journal journal() {
        return journal;
    }

    public ExchangeCounters counters() {
        return counters;
    }

    public ExchangeLog log() {
        return log;
    }
}
