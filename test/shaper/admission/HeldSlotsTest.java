package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.limit.FifoLimiter;
import shaper.limit.ManualTimeSource;

/**
 * What the dashboard says a held slot waits out: each hold {@link Slots} starts is noted with its
 * reason for as long as the limiter holds the slot, on a real limiter and a clock the test moves.
 */
class HeldSlotsTest {
    private final ManualTimeSource time = new ManualTimeSource();
    private final AdmissionConfig config = new AdmissionConfig(List.of(), false, 1, 0, Duration.ofSeconds(30), 0, Duration.ZERO,
            Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(2), false, Duration.ofSeconds(30), false);
    private final FifoLimiter pool = new FifoLimiter("default", 4, Duration.ZERO, Duration.ofSeconds(30), time);
    private final HeldSlots held = new HeldSlots(time);

    private void end(ExchangeEnd end, Duration penalty) throws Exception {
        new Slots(new AdmissionClass(null, null, null, true, "", false, null), List.of(pool.tryAcquire()), config, held).dispose(end, () -> penalty);
    }

    @Test
    void eachHoldIsNotedWithItsReasonUntilItEnds() throws Exception {
        Duration none = Duration.ZERO;
        end(new ExchangeEnd(true, 503, true, false, false, none), none); // failure hold, 2s
        end(new ExchangeEnd(true, 503, true, false, false, none), Duration.ofSeconds(8)); // the breaker's penalty
        end(new ExchangeEnd(true, 200, false, true, false, none), none); // client left: cancel cooldown, 200ms
        end(new ExchangeEnd(true, 200, false, false, false, none), none); // clean: released at once
        assertEquals(Map.of(HeldSlots.Reason.FAILURE_HOLD, 1, HeldSlots.Reason.PHANTOM_PENALTY, 1, HeldSlots.Reason.CANCEL_COOLDOWN, 1),
                held.now());
        assertEquals(3, pool.view().held(), "the limiter holds the same slots");

        time.advance(Duration.ofMillis(200));
        assertEquals(Map.of(HeldSlots.Reason.FAILURE_HOLD, 1, HeldSlots.Reason.PHANTOM_PENALTY, 1), held.now());
        time.advance(Duration.ofMillis(1800));
        assertEquals(Map.of(HeldSlots.Reason.PHANTOM_PENALTY, 1), held.now());
        assertEquals(1, pool.view().held());
        time.advance(Duration.ofSeconds(6));
        assertEquals(Map.of(), held.now());
        assertEquals(0, pool.view().held());
    }
}
