package shaper.observe;

import java.time.Duration;
import java.util.Optional;

/**
 * An exchange's attempts and its retry backoff, as its trace shows them: how many attempts were sent,
 * and while it waits between two, which attempt comes next, when and why. Written by the exchange's
 * handler thread; read by views on other threads (each field volatile on its own).
 */
final class RetryState {
    private volatile long lastSent = Timings.UNSET;
    private volatile int attempts;
    /** While backing off: the next attempt, when it is due (nanos since arrival), why; null otherwise. */
    private volatile Backoff backoff;

    private record Backoff(int nextAttempt, long dueAt, String why) {
    }

    /** An attempt is sent at {@code now} (nanos since arrival); any backoff is over. Returns its number. */
    int started(long now) {
        lastSent = now;
        backoff = null;
        return ++attempts;
    }

    /** The exchange waits from {@code now} for {@code delay} before attempt {@code nextAttempt}, because of {@code why}. */
    void backingOff(long now, int nextAttempt, Duration delay, String why) {
        backoff = new Backoff(nextAttempt, now + delay.toNanos(), why);
    }

    int attempts() {
        return attempts;
    }

    /** When the last attempt was sent (nanos since arrival), {@link Timings#UNSET} before the first. */
    long lastSent() {
        return lastSent;
    }

    /** A second attempt was sent, or the first waits out a backoff. */
    boolean retrying() {
        return attempts > 1 || backoff != null;
    }

    /** The wait in progress as seen at {@code now} (nanos since arrival); empty when none. */
    Optional<RetryWait> waitAt(long now) {
        Backoff b = backoff;
        return b == null ? Optional.empty() : Optional.of(new RetryWait(b.nextAttempt(), Duration.ofNanos(b.dueAt() - now), b.why()));
    }
}
