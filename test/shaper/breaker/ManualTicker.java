package shaper.breaker;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A nanosecond ticker that only moves when a test moves it; starts 15s before {@code long} wrap-around so tests cross it. */
final class ManualTicker implements LongSupplier {
    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - Duration.ofSeconds(15).toNanos());

    @Override
    public long getAsLong() {
        return now.get();
    }

    void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }
}
