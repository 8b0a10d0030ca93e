package shaper.limit;

import java.util.Objects;

/**
 * What a {@link FairQueue} holds: one waiter of a priority class and a client, with the links of its
 * client's {@link WaitQueue}. A slot limiter's {@link Waiter} and a token budget's ticket both extend
 * it, so every limiter schedules its classes and clients with the one scheduler. The links and the
 * arrival number are the queue's own (guarded by the owning limiter's lock); subclasses see only
 * the class and the client.
 */
public abstract class Queued {
    final QueueClass cls;
    final QueueClient client;
    /** Arrival order among the limiter's waiters, set by the {@link FairQueue}. */
    long arrival;
    // Links of the client's WaitQueue.
    Queued prev;
    Queued next;

    protected Queued(QueueClass cls) {
        this(cls, QueueClient.ANONYMOUS);
    }

    protected Queued(QueueClass cls, QueueClient client) {
        this.cls = Objects.requireNonNull(cls, "cls");
        this.client = Objects.requireNonNull(client, "client");
    }

    /** The priority class this waiter queues in. */
    public final QueueClass queueClass() {
        return cls;
    }

    /** The client this waiter queues for. */
    public final QueueClient queueClient() {
        return client;
    }
}
