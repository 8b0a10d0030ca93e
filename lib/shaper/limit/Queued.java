package shaper.limit;

import java.util.Objects;

/**
 * What a {@link FairQueue} holds: one waiter of a priority class, with the links of its class's
 * {@link WaitQueue}. A slot limiter's {@link Waiter} and a token budget's ticket both extend it, so
 * every limiter schedules its classes with the one scheduler. The links and the arrival number are
 * the queue's own (guarded by the owning limiter's lock); subclasses see only the class.
 */
public abstract class Queued {
    final QueueClass cls;
    /** Arrival order among the limiter's waiters, set by the {@link FairQueue}. */
    long arrival;
    // Links of the class's WaitQueue.
    Queued prev;
    Queued next;

    protected Queued(QueueClass cls) {
        this.cls = Objects.requireNonNull(cls, "cls");
    }

    /** The priority class this waiter queues in. */
    public final QueueClass queueClass() {
        return cls;
    }
}
