package shaper.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import shaper.clients.ClientConfig;

/** Provider-scope flags of fair share between clients: where identities come from, weights and caps. */
public final class ClientOptions {
    @Option(names = {"-client-id", "--client-id"}, paramLabel = "SOURCES", defaultValue = ClientConfig.DEFAULT_SOURCES,
            description = "Where a request's client identity comes from, first match wins: key, header:NAME, session, comma-separated;"
                    + " none = anonymous (default ${DEFAULT-VALUE})")
    String sources;

    @Option(names = {"-client-weight", "--client-weight"}, paramLabel = "[NAME=]W",
            description = "A client's share inside its priority class (1-1000, default 1); bare W sets every client's; repeatable")
    List<String> weights = new ArrayList<>();

    @Option(names = {"-client-concurrency", "--client-concurrency"}, paramLabel = "[NAME=]N",
            description = "Most slots of one limiter a client may hold; further requests wait in its own line (0 = no cap, the default); repeatable")
    List<String> concurrency = new ArrayList<>();

    @Option(names = {"-client-queue-depth", "--client-queue-depth"}, paramLabel = "[NAME=]N",
            description = "A client's waiters per limiter before its next request gets 429 (0 = no bound, the default); repeatable")
    List<String> queueDepth = new ArrayList<>();

    @Option(names = {"-client-metrics", "--client-metrics"}, arity = "0..1", fallbackValue = "true", defaultValue = "true",
            description = "Label the per-client series by client (the first 32 seen, the rest other) (default ${DEFAULT-VALUE})")
    boolean metrics;

    ClientConfig toConfig() {
        return ClientConfig.parse(sources, weights, concurrency, queueDepth, metrics);
    }
}
