package shaper.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import shaper.clients.ClientConfig;
import shaper.limit.AdaptiveConfig;
import shaper.priority.PriorityConfig;

/** Provider-scope flags of the smarter queue: priority classes, fair share between clients and the adaptive concurrency limit. */
public final class QueueOptions {
    @Option(names = {"-priority-class", "--priority-class"}, paramLabel = "NAME=WEIGHT",
            description = "Declare a priority class and its weight (1-1000); repeatable; none = one FIFO per limiter")
    List<String> classes = new ArrayList<>();

    @Option(names = {"-priority-header", "--priority-header"}, paramLabel = "NAME", defaultValue = PriorityConfig.DEFAULT_HEADER,
            description = "Request header naming the class; never forwarded (default ${DEFAULT-VALUE})")
    String header;

    @Option(names = {"-priority-rule", "--priority-rule"}, paramLabel = "FIELD~GLOB=CLASS",
            description = "Class for requests whose model, path or header:NAME matches GLOB; first match wins; repeatable")
    List<String> rules = new ArrayList<>();

    @Option(names = {"-priority-default", "--priority-default"}, paramLabel = "CLASS",
            description = "Class of requests no header or rule places (default: the first class declared)")
    String defaultClass;

    @Option(names = {"-adaptive-concurrency", "--adaptive-concurrency"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Let every limiter find its own limit (AIMD) below its configured one (default ${DEFAULT-VALUE})")
    boolean adaptive;

    @Option(names = {"-concurrency-min", "--concurrency-min"}, paramLabel = "N", defaultValue = "1",
            description = "Lowest limit -adaptive-concurrency may fall to (default ${DEFAULT-VALUE})")
    int concurrencyMin;

    // the per-client numbers share one form: N for every client, NAME=N for one (repeatable)
    private static final String WEIGHT = "A client's share inside its priority class (1-1000, default 1); bare W sets every client's; repeatable";
    private static final String CAP = "Most slots of one limiter a client may hold; further requests wait in its own line (0 = no cap, the default);"
            + " repeatable";
    private static final String DEPTH = "A client's waiters per limiter before its next request gets 429 (0 = no bound, the default); repeatable";

    @Option(names = {"-client-id", "--client-id"}, paramLabel = "SOURCES", defaultValue = ClientConfig.DEFAULT_SOURCES,
            description = "Where a request's client identity comes from, first match wins: key, header:NAME, session, comma-separated;"
                    + " none = anonymous (default ${DEFAULT-VALUE})")
    String clientSources;

    @Option(names = {"-client-weight", "--client-weight"}, paramLabel = "[NAME=]W", description = WEIGHT)
    List<String> clientWeights = new ArrayList<>();
    @Option(names = {"-client-concurrency", "--client-concurrency"}, paramLabel = "[NAME=]N", description = CAP)
    List<String> clientConcurrency = new ArrayList<>();
    @Option(names = {"-client-queue-depth", "--client-queue-depth"}, paramLabel = "[NAME=]N", description = DEPTH)
    List<String> clientQueueDepth = new ArrayList<>();

    @Option(names = {"-client-metrics", "--client-metrics"}, arity = "0..1", fallbackValue = "true", defaultValue = "true",
            description = "Label the per-client series by client (the first 32 seen, the rest other) (default ${DEFAULT-VALUE})")
    boolean clientMetrics;

    PriorityConfig priority() {
        return PriorityConfig.parse(classes, header, rules, defaultClass);
    }

    AdaptiveConfig adaptive() {
        return new AdaptiveConfig(adaptive, concurrencyMin);
    }

    ClientConfig clients() {
        return ClientConfig.parse(clientSources, clientWeights, clientConcurrency, clientQueueDepth, clientMetrics);
    }
}
