package shaper.cluster;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * When to run {@link LeaseScripts#PUMP} for one limiter: slots freed by a release are granted by
 * the releasing script itself, but a slot that returns by time (a hold ending, a cooldown, a
 * headroom window, a crashed instance's expiry) has nobody to grant it. Two triggers cover that:
 * the instance that set the delay pumps when it ends ({@link #after}), and an instance with
 * tickets queued pumps at the next expiry Redis reported ({@link #atNextEvent}). Thread-safe.
 */
final class GrantPump {
    private static final String THREAD = "shaper-cluster-pump";

    private final LeaseCalls calls;
    private final LeaseTimers timers;
    private final BooleanSupplier waiting;

    /** @param waiting whether this instance has tickets queued in Redis */
    GrantPump(LeaseCalls calls, LeaseTimers timers, BooleanSupplier waiting) {
        this.calls = calls;
        this.timers = timers;
        this.waiting = waiting;
    }

    /** Pumps at the next expiry Redis reported ({@code delayMs}, -1 = none), while this instance has tickets queued. */
    void atNextEvent(long delayMs) {
        if (delayMs > 0 && waiting.getAsBoolean()) {
            timers.earliest(Duration.ofMillis(delayMs), THREAD, this::pump);
        }
    }

    /** A slot returns after {@code delay}: grant it then, wherever its waiter is. */
    void after(Duration delay) {
        timers.later(delay.plusMillis(1), THREAD, this::pump);
    }

    private void pump() {
        try {
            atNextEvent(calls.pump());
        } catch (RedisUnavailable e) {
            // the link is down now
        }
    }
}
