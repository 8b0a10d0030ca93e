package shaper.clients;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import shaper.limit.QueueClass;
import shaper.limit.QueueClient;

/**
 * One provider's client settings, validated once at startup: where identities come from and what
 * each client may take. With the defaults every client has weight 1 and no cap, so a provider whose
 * requests all come from one client (or all anonymous) queues exactly as without clients.
 *
 * @param identity    {@code -client-id} (default {@value #DEFAULT_SOURCES})
 * @param weight      {@code -client-weight NAME=W}: shares inside a priority class (default 1)
 * @param concurrency {@code -client-concurrency [NAME=]N}: slots of one limiter a client may hold (0 = no cap, the default)
 * @param queueDepth  {@code -client-queue-depth [NAME=]N}: a client's waiters per limiter before 429 (0 = no bound, the default)
 * @param metrics     {@code -client-metrics}: label the per-client series by client (default true)
 */
public record ClientConfig(ClientIdentity identity, PerClient weight, PerClient concurrency, PerClient queueDepth,
                           boolean metrics) {
    /** The default {@code -client-id}: the client key's name, where keys are required. */
    public static final String DEFAULT_SOURCES = "key";
    /** The defaults: identities from client keys, equal weights, no caps. */
    public static final ClientConfig DEFAULTS = parse(DEFAULT_SOURCES, List.of(), List.of(), List.of(), true);

    /**
     * Parses the flags' texts.
     *
     * @throws shaper.config.ConfigException naming the flag and value that are wrong
     */
    public static ClientConfig parse(String sources, List<String> weights, List<String> concurrency, List<String> queueDepth,
                                     boolean metrics) {
        PerClient w = PerClient.parse("-client-weight", weights, 1, 1, QueueClass.MAX_WEIGHT);
        return new ClientConfig(new ClientIdentity(ClientSource.parseList(sources)), w,
                PerClient.parse("-client-concurrency", concurrency, 0, 0, 1_000_000),
                PerClient.parse("-client-queue-depth", queueDepth, 0, 0, 1_000_000), metrics);
    }

    /**
     * The client of one exchange, with its policy.
     *
     * @param header the request's first value of a header (any case), or null
     * @param key    the name of the client key presented, empty when keys are not required
     */
    public QueueClient client(Function<String, String> header, Optional<String> key) {
        return named(identity.of(header, key));
    }

    /** The client called {@code name}, with its policy. */
    public QueueClient named(String name) {
        if (name.equals(ClientIdentity.ANONYMOUS) && weight.named().isEmpty() && concurrency.named().isEmpty()
                && queueDepth.named().isEmpty() && concurrency.fallback() == 0 && queueDepth.fallback() == 0
                && weight.fallback() == 1) {
            return QueueClient.ANONYMOUS;
        }
        return new QueueClient(name, weight.of(name), concurrency.of(name), queueDepth.of(name));
    }
}
