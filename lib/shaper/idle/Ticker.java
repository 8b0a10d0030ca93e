package shaper.idle;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The pause of a worker thread that looks at its work once per period (the log writer, the watch
 * of upstream calls, the watch of queued clients), and that stops ticking while it has nothing to
 * look at.
 *
 * <p>Why: a proxy that nobody uses should not wake up hundreds of times a second. Each such
 * wake-up also lands on the same few cores as the next SSE event, and is one more chance to
 * delay it. A worker that found nothing to do for {@code idleRounds} rounds in a row sleeps until
 * {@link #wake()}; while work keeps coming it ticks as before, so a busy proxy pays no wake-up per
 * request (a producer's {@link #wake()} is one volatile read then).
 *
 * <pre>
 * worker: ─ tick ─ tick ─ (idle × idleRounds) ─ asleep=true ─ still idle? park ─────────▶ asleep=false ─ tick …
 * producer:                                              add work ─ wake(): asleep? CAS → unpark ┘
 * </pre>
 * The worker publishes {@code asleep} before it checks for work one last time, and a producer
 * adds its work before it reads {@code asleep}: one of the two always sees the other.
 * Thread-safety: {@link #pause} belongs to one worker thread; {@link #wake()} may come from any.
 */
public final class Ticker {
    private final long periodNanos;
    private final int idleRounds;
    private final AtomicBoolean asleep = new AtomicBoolean();
    private volatile Thread worker;
    private int idleSoFar;

    /**
     * @param period     the time between two looks at the work
     * @param idleRounds looks in a row that found nothing before the worker sleeps (at least 1)
     */
    public Ticker(Duration period, int idleRounds) {
        this.periodNanos = period.toNanos();
        this.idleRounds = Math.max(1, idleRounds);
    }

    /**
     * Called by the worker after each look: waits one period, or, after {@code idleRounds} idle
     * looks in a row and while {@code idle} still holds, until {@link #wake()} (or an interrupt
     * or unpark of the worker). The caller checks its own stop flag after it returns.
     *
     * @param foundWork whether the look that just ended found anything to do
     * @param idle      whether there is nothing to look at now (asked again just before sleeping)
     */
    public void pause(boolean foundWork, BooleanSupplier idle) {
        if (worker == null) {
            worker = Thread.currentThread();
        }
        idleSoFar = foundWork ? 0 : idleSoFar + 1;
        if (idleSoFar < idleRounds || !idle.getAsBoolean()) {
            LockSupport.parkNanos(this, periodNanos);
            return;
        }
        asleep.set(true);
        if (idle.getAsBoolean()) {
            LockSupport.park(this);
        }
        asleep.set(false);
        idleSoFar = 0;
    }

    /** Called after adding work: wakes the worker if it sleeps; otherwise one volatile read. */
    public void wake() {
        if (asleep.get() && asleep.compareAndSet(true, false)) {
            Thread w = worker;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }
}
