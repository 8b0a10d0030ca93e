package shaper.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

/**
 * Transitions are told by the breaker, once each, by the call that made them, with the counts of
 * the state they produced; two quick transitions are two events; a failing listener is isolated.
 * The same transitions are kept, numbered, for a reader that looks only now and then.
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
    void theHistoryNumbersEveryTransitionInOrderAndKeepsTheLatest() {
        ManualTicker ticker = new ManualTicker();
        CircuitBreaker breaker = CircuitBreaker.of(Breakers.config(), ticker);
        assertEquals(List.of(), breaker.transitionsSince(0), "a new breaker has made no transition");
        Breakers.trip(breaker);
        ticker.advance(Duration.ofSeconds(10));
        breaker.recordSuccess(Breakers.allowed(breaker));
        List<BreakerTransition> flap = breaker.transitionsSince(0);
        assertEquals(List.of(new Event(BreakerState.CLOSED, BreakerState.OPEN, 3), new Event(BreakerState.OPEN, BreakerState.HALF_OPEN, 3),
                new Event(BreakerState.HALF_OPEN, BreakerState.CLOSED, 0)), flap.stream().map(BreakerEventsTest::event).toList());
        assertEquals(List.of(1L, 2L, 3L), flap.stream().map(BreakerTransition::sequence).toList());
        assertEquals(flap.subList(2, 3), breaker.transitionsSince(2), "only what came after the one named");
        assertEquals(List.of(), breaker.transitionsSince(3));

        // each round trip is three more transitions; the oldest drop out past the bound
        int rounds = CircuitBreaker.KEPT_TRANSITIONS / 3 + 1;
        for (int i = 0; i < rounds; i++) {
            Breakers.trip(breaker);
            ticker.advance(Duration.ofSeconds(10));
            breaker.recordSuccess(Breakers.allowed(breaker));
        }
        List<BreakerTransition> kept = breaker.transitionsSince(0);
        long made = 3L * (rounds + 1);
        assertEquals(CircuitBreaker.KEPT_TRANSITIONS, kept.size());
        assertEquals(made, kept.getLast().sequence());
        assertEquals(made - CircuitBreaker.KEPT_TRANSITIONS + 1, kept.getFirst().sequence(), "a reader that fell behind sees the gap");
    }

    @Test
    void aDisabledBreakerRecordsNoTransition() {
        CircuitBreaker off = CircuitBreaker.of(BreakerConfig.disabled(), new ManualTicker());
        for (int i = 0; i < 10; i++) {
            Breakers.fail(off);
        }
        assertEquals(List.of(), off.transitionsSince(0));
    }

    private static Event event(BreakerTransition t) {
        return new Event(t.from(), t.to(), t.after().consecutiveFailures());
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
