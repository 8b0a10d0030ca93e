package shaper.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.breaker.Breakers.allowed;
import static shaper.breaker.Breakers.fail;
import static shaper.breaker.Breakers.trip;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Trip, open, half-open and close: the state machine driven on a manual clock. */
class CircuitBreakerTest {
    private final ManualTicker clock = new ManualTicker();
    private final CircuitBreaker breaker = CircuitBreaker.of(Breakers.config(), clock);

    @Test
    void tripsWhenThresholdFailuresFallWithinWindow() {
        fail(breaker);
        clock.advance(Duration.ofSeconds(10));
        fail(breaker);
        assertEquals(BreakerState.CLOSED, breaker.snapshot().state());
        clock.advance(Duration.ofSeconds(19));
        fail(breaker);

        BreakerSnapshot s = breaker.snapshot();
        assertEquals(BreakerState.OPEN, s.state());
        assertEquals(2, s.state().metricValue());
        assertEquals(3, s.failuresInWindow());
    }

    @Test
    void failuresSpreadBeyondWindowDoNotTrip() {
        for (int i = 0; i < 10; i++) {
            fail(breaker);
            clock.advance(Duration.ofSeconds(15));
        }
        BreakerSnapshot s = breaker.snapshot();
        assertEquals(BreakerState.CLOSED, s.state());
        assertEquals(1, s.failuresInWindow(), "a stamp exactly one window old has dropped out");
        assertEquals(10, s.consecutiveFailures());
    }

    @Test
    void openCircuitRejectsUntilOpenTimeoutElapses() {
        trip(breaker);
        assertSame(Admission.REJECTED, breaker.allow());
        clock.advance(Duration.ofSeconds(9));
        assertSame(Admission.REJECTED, breaker.allow());
        assertEquals(Duration.ofSeconds(1), breaker.snapshot().nextProbeIn());
    }

    @Test
    void openTurnsHalfOpenLazilyInsideAllow() {
        trip(breaker);
        clock.advance(Duration.ofSeconds(10));
        assertEquals(BreakerState.OPEN, breaker.snapshot().state(), "no timer moves the state");
        assertEquals(Duration.ZERO, breaker.snapshot().nextProbeIn());

        Admission.Allowed probe = allowed(breaker);
        assertTrue(probe.probe());
        BreakerSnapshot s = breaker.snapshot();
        assertEquals(BreakerState.HALF_OPEN, s.state());
        assertEquals(1, s.state().metricValue());
        assertTrue(s.probeOutstanding());
        assertSame(Admission.REJECTED, breaker.allow(), "only one probe at a time");
    }

    @Test
    void probeSuccessClosesAndResets() {
        trip(breaker);
        clock.advance(Duration.ofSeconds(10));
        breaker.recordFailure(allowed(breaker), Duration.ofSeconds(5));
        clock.advance(Duration.ofSeconds(20));
        Admission.Allowed probe = allowed(breaker);

        breaker.recordSuccess(probe);

        BreakerSnapshot s = breaker.snapshot();
        assertEquals(BreakerState.CLOSED, s.state());
        assertEquals(0, s.failuresInWindow());
        assertEquals(0, s.consecutiveFailures());
        assertFalse(s.probeOutstanding());
        assertEquals(Duration.ofSeconds(10), s.openTimeout(), "backoff reset");
        assertEquals(Duration.ofSeconds(2), breaker.penalty(), "Retry-After floor reset");
        Admission.Allowed next = allowed(breaker);
        assertFalse(next.probe());
        fail(breaker);
        fail(breaker);
        assertEquals(BreakerState.CLOSED, breaker.snapshot().state(), "the window starts empty again");
    }

    @Test
    void probeFailureReopensWithDoubledTimeoutCappedAtMax() {
        trip(breaker);
        Duration[] expectedWaits = {Duration.ofSeconds(20), Duration.ofSeconds(40), Duration.ofSeconds(40)};
        Duration wait = Duration.ofSeconds(10);
        for (Duration expected : expectedWaits) {
            clock.advance(wait);
            fail(breaker);
            BreakerSnapshot s = breaker.snapshot();
            assertEquals(BreakerState.OPEN, s.state());
            assertEquals(expected, s.openTimeout());
            clock.advance(expected.minusNanos(1));
            assertSame(Admission.REJECTED, breaker.allow(), "still open just before " + expected);
            wait = Duration.ofNanos(1);
        }
        clock.advance(wait);
        assertTrue(allowed(breaker).probe());
    }

    @Test
    void stuckProbeIsReplacedAfterOpenTimeout() {
        trip(breaker);
        clock.advance(Duration.ofSeconds(10));
        Admission.Allowed first = allowed(breaker);
        clock.advance(Duration.ofSeconds(10));
        assertSame(Admission.REJECTED, breaker.allow(), "not yet longer than the open timeout");
        clock.advance(Duration.ofMillis(1));

        Admission.Allowed second = allowed(breaker);
        assertTrue(second.probe());
        assertNotEquals(first.epoch(), second.epoch());
        breaker.recordSuccess(first);
        assertEquals(BreakerState.HALF_OPEN, breaker.snapshot().state(), "the replaced probe's late answer is stale");
        breaker.recordSuccess(second);
        assertEquals(BreakerState.CLOSED, breaker.snapshot().state());
    }

    @Test
    void cancelFreesTheProbe() {
        trip(breaker);
        clock.advance(Duration.ofSeconds(10));
        Admission.Allowed probe = allowed(breaker);

        breaker.cancel(probe);

        BreakerSnapshot s = breaker.snapshot();
        assertEquals(BreakerState.HALF_OPEN, s.state());
        assertFalse(s.probeOutstanding());
        Admission.Allowed next = allowed(breaker);
        assertTrue(next.probe());
        breaker.recordFailure(probe, Duration.ZERO);
        assertEquals(BreakerState.HALF_OPEN, breaker.snapshot().state(), "a cancelled probe reports nothing more");
    }

    @Test
    void neutralProbeResultNeitherClosesNorReopens() {
        trip(breaker);
        clock.advance(Duration.ofSeconds(10));

        breaker.recordNeutral(allowed(breaker));

        BreakerSnapshot s = breaker.snapshot();
        assertEquals(BreakerState.HALF_OPEN, s.state());
        assertFalse(s.probeOutstanding());
        assertEquals(Duration.ofSeconds(10), s.openTimeout(), "no backoff");
        assertEquals(3, s.consecutiveFailures());
        assertTrue(allowed(breaker).probe());
    }

    @Test
    void neutralResultWhileClosedChangesNothing() {
        fail(breaker);
        fail(breaker);
        breaker.recordNeutral(allowed(breaker));
        breaker.cancel(allowed(breaker));
        assertEquals(2, breaker.snapshot().consecutiveFailures());
        assertEquals(2, breaker.snapshot().failuresInWindow());
    }

    @Test
    void resultOfAttemptStartedBeforeOpenIsIgnoredInHalfOpen() {
        Admission.Allowed slow = allowed(breaker);
        trip(breaker);
        clock.advance(Duration.ofSeconds(10));
        Admission.Allowed probe = allowed(breaker);

        breaker.recordSuccess(slow);
        assertEquals(BreakerState.HALF_OPEN, breaker.snapshot().state());
        assertTrue(breaker.snapshot().probeOutstanding());
        breaker.recordFailure(slow, Duration.ZERO);
        assertEquals(BreakerState.HALF_OPEN, breaker.snapshot().state());

        breaker.recordSuccess(probe);
        assertEquals(BreakerState.CLOSED, breaker.snapshot().state());
    }

    @Test
    void staleEpochResultsDoNotCountAfterRecovery() {
        Admission.Allowed[] slow = {allowed(breaker), allowed(breaker), allowed(breaker)};
        trip(breaker);
        clock.advance(Duration.ofSeconds(10));
        breaker.recordSuccess(allowed(breaker));

        for (Admission.Allowed a : slow) {
            breaker.recordFailure(a, Duration.ofSeconds(30));
        }

        BreakerSnapshot s = breaker.snapshot();
        assertEquals(BreakerState.CLOSED, s.state());
        assertEquals(0, s.failuresInWindow());
        assertEquals(0, s.consecutiveFailures());
        assertEquals(Duration.ofSeconds(2), breaker.penalty());
    }

    @Test
    void reportingRejectedAdmissionIsNoOp() {
        trip(breaker);
        Admission rejected = breaker.allow();
        assertInstanceOf(Admission.Rejected.class, rejected);
        breaker.recordSuccess(rejected);
        breaker.cancel(rejected);
        assertEquals(BreakerState.OPEN, breaker.snapshot().state());
    }

    @Test
    void disabledBreakerAdmitsEverythingAndHoldsNothing() {
        CircuitBreaker off = CircuitBreaker.of(BreakerConfig.disabled(), clock);
        for (int i = 0; i < 20; i++) {
            off.recordFailure(allowed(off), Duration.ofSeconds(30));
        }
        assertEquals(BreakerState.CLOSED, off.snapshot().state());
        assertFalse(allowed(off).probe());
        assertEquals(Duration.ZERO, off.penalty());
    }
}
