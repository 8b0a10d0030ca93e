package shaper.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import shaper.limit.AdaptiveConfig;
import shaper.priority.PriorityConfig;

/** Provider-scope flags of the smarter queue: priority classes and the adaptive concurrency limit. */
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

    PriorityConfig priority() {
        return PriorityConfig.parse(classes, header, rules, defaultClass);
    }

    AdaptiveConfig adaptive() {
        return new AdaptiveConfig(adaptive, concurrencyMin);
    }
}
