package shaper.limit;

import java.util.Objects;

/**
 * Who a waiter queues for, as the limiter sees it: the client's name and its policy. Inside one
 * priority class, clients share returning slots in proportion to their weights while several wait,
 * and each client's own requests are served in arrival order (see {@link FairQueue}). A limiter
 * that only ever sees {@link #ANONYMOUS} behaves exactly as one without clients.
 *
 * @param name        the identity ({@code anonymous} when no source named one); shown in views and logs; not blank
 * @param weight      relative share of slots while clients of one class compete, 1..{@value QueueClass#MAX_WEIGHT}
 * @param concurrency the most slots of one limiter this client may hold at once; 0 = no cap
 * @param queueDepth  the most waiters of this client in one limiter before its next arrival is refused; 0 = no bound
 */
public record QueueClient(String name, int weight, int concurrency, int queueDepth) {
    /** The client of every request no identity source named. */
    public static final QueueClient ANONYMOUS = new QueueClient("anonymous", 1, 0, 0);

    public QueueClient {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name: blank (expected: a client name)");
        }
        if (weight < 1 || weight > QueueClass.MAX_WEIGHT) {
            throw new IllegalArgumentException("weight: " + weight + " (expected: 1.." + QueueClass.MAX_WEIGHT + ")");
        }
        if (concurrency < 0 || queueDepth < 0) {
            throw new IllegalArgumentException("concurrency/queueDepth: " + concurrency + "/" + queueDepth + " (expected: >= 0)");
        }
    }

    /** Whether holding {@code held} slots of a limiter leaves this client room for one more. */
    public boolean mayHoldMore(int held) {
        return concurrency == 0 || held < concurrency;
    }
}
