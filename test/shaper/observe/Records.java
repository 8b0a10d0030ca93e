package shaper.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import shaper.testing.RunningShaper;

/** Waits for a provider's journal to hold exactly the expected number of finished exchanges. */
final class Records {
    static final Duration BOUND = Duration.ofSeconds(10);

    private Records() {
    }

    /**
     * Waits (bounded) until {@code n} records exist and nothing is in flight, then returns them,
     * newest first, after checking that the counters saw exactly those records.
     */
    static List<ExchangeRecord> exactly(RunningShaper shaper, String provider, int n) {
        Journal journal = shaper.server().journal(provider);
        RunningShaper.await(n + " record(s) and nothing in flight", BOUND,
                () -> journal.recent().size() >= n && journal.inFlight().isEmpty());
        List<ExchangeRecord> recent = journal.recent();
        assertEquals(n, recent.size(), recent.toString());
        ExchangeCounters.Snapshot s = shaper.server().counters(provider).snapshot();
        long outcomes = s.cleanProxied() + s.cleanPassthrough() + s.aborted() + s.failed();
        assertEquals(n, outcomes, "each record counted once, in exactly one outcome: " + s);
        return recent;
    }
}
