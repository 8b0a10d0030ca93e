package shaper.limit;

import java.util.HashMap;
import java.util.Map;

/**
 * How many slots of one limiter each client holds now, for {@code -client-concurrency}: a slot counts
 * from its grant until the exchange releases it (a hold or cooldown after that no longer counts
 * against the client: its request is over). Only clients holding a slot have an entry. Not
 * thread-safe: guarded by the owning limiter's lock.
 */
final class ClientHolds {
    private final Map<String, Integer> held = new HashMap<>();

    int of(QueueClient client) {
        return held.getOrDefault(client.name(), 0);
    }

    /** Whether {@code client} may take one more slot under its cap. */
    boolean mayTake(QueueClient client) {
        return client.concurrency() == 0 || client.mayHoldMore(of(client));
    }

    void took(QueueClient client) {
        held.merge(client.name(), 1, Integer::sum);
    }

    void gave(QueueClient client) {
        held.computeIfPresent(client.name(), (k, n) -> n <= 1 ? null : n - 1);
    }

    /** Slots held per client name, for the clients holding any. */
    Map<String, Integer> snapshot() {
        return Map.copyOf(held);
    }
}
