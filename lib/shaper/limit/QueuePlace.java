package shaper.limit;

import java.util.Objects;

/**
 * Where one request queues in every limiter it passes: its priority class's lane and, inside it,
 * its client's line ({@link FairQueue}).
 *
 * @param cls    the priority class; {@link QueueClass#DEFAULT} when no classes are declared
 * @param client the client; {@link QueueClient#ANONYMOUS} when no identity source named one
 */
public record QueuePlace(QueueClass cls, QueueClient client) {
    /** The place of every request of a provider without classes or client identities. */
    public static final QueuePlace DEFAULT = new QueuePlace(QueueClass.DEFAULT, QueueClient.ANONYMOUS);

    public QueuePlace {
        Objects.requireNonNull(cls, "cls");
        Objects.requireNonNull(client, "client");
    }
}
