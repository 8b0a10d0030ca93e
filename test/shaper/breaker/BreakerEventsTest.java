package shaper.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

/**
 * Transitions are told by the breaker, once each, by the call that made them, with the counts of
 * the state they produced; two quick transitions are two events; a failing listener is isolated.
 */
class BreakerEventsTest {
    private record Event(BreakerState from, BreakerState to, int consecutive) {
    }

    @Test
    void eachTransitionIsOneEventFromTheCallThatMadeIt() {
        ManualTicker ticker = new ManualTicker();
        List<Event> events = new CopyOnWriteArrayList<>();
        CircuitBreaker breaker = CircuitBreaker.of(Breakers.config(), ticker,
                List.of((from, to, now) -> events.add(new Event(from, to, now.consecutiveFailures()))));
        Breakers.fail(breaker);
        Breakers.fail(breaker);
        assertEquals(List.of(), events, "no transition yet");
        Breakers.fail(breaker);
        assertEquals(List.of(new Event(BreakerState.CLOSED, BreakerState.OPEN, 3)), events, "told by the third failure itself");

        ticker.advance(Duration.ofSeconds(10));
        Admission.Allowed probe = Breakers.allowed(breaker);
        assertEquals(new Event(BreakerState.OPEN, BreakerState.HALF_OPEN, 3), events.get(1), "the allow() that issued the probe");
        breaker.recordFailure(probe, Duration.ZERO);
        assertEquals(new Event(BreakerState.HALF_OPEN, BreakerState.OPEN, 4), events.get(2), "two quick transitions, two events");

        ticker.advance(Duration.ofSeconds(20));
        breaker.recordSuccess(Breakers.allowed(breaker));
        assertEquals(List.of(BreakerState.HALF_OPEN, BreakerState.CLOSED), events.subList(3, 5).stream().map(Event::to).toList());
        assertEquals(0, events.get(4).consecutive(), "the closing success resets the count it reports");
        assertEquals(5, events.size());
    }

    @Test
    void aListenerThatThrowsNeitherStopsTheBreakerNorTheOtherListeners() {
        List<BreakerState> heard = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.currentThread().getUncaughtExceptionHandler();
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> reported.add(e));
        try {
            CircuitBreaker breaker = CircuitBreaker.of(Breakers.config(), new ManualTicker(), List.of(
                    (from, to, now) -> {
                        throw new IllegalStateException("listener bug");
                    },
                    (from, to, now) -> heard.add(to)));
            Breakers.trip(breaker);
            assertEquals(BreakerState.OPEN, breaker.state());
            assertEquals(List.of(BreakerState.OPEN), heard);
            assertEquals(1, reported.size());
        } finally {
            Thread.currentThread().setUncaughtExceptionHandler(before);
        }
    }
}
