package shaper.admission;

import java.time.Duration;

/**
 * What a request does while it waits for a slot. The admitter calls {@link #beforeWaiting()} once,
 * only when a limiter actually queues the request (a free slot never triggers it), then
 * {@link #tick(Duration)} every {@link #tickInterval()} while it waits.
 */
public interface QueueWait {
    /** A wait with no side effects. */
    QueueWait SILENT = new QueueWait() {
    };

    /** Prepares for a wait (reads the body so the connection can be watched, commits an SSE stream); may throw to refuse. */
    default void beforeWaiting() throws ClientGoneException {
    }

    /**
     * A limiter queued the request; called for each limiter that does, before it waits there.
     *
     * @param limiter  the limiter's name
     * @param position the request's place in its queue on joining, itself counted (1 = next)
     */
    default void queued(String limiter, int position) {
    }

    /** {@link Duration#ZERO} for no ticks. */
    default Duration tickInterval() {
        return Duration.ZERO;
    }

    /** Called every interval with the time waited so far; throws when the client can no longer be written to. */
    default void tick(Duration waited) throws ClientGoneException {
    }

    /**
     * The longest this request waits in the queues, when shorter than {@code -queue-timeout}: a routed
     * request that may go to another provider ({@code -fallback-after}). {@link Duration#ZERO} for none.
     */
    default Duration patience() {
        return Duration.ZERO;
    }

    /** Whether the client has been seen to disconnect. */
    default boolean clientGone() {
        return false;
    }
}
