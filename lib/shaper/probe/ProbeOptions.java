package shaper.probe;

import java.time.Duration;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import shaper.config.BindAddress;
import shaper.config.ConfigException;

/** The fixture server's flags, Go-style like the proxy's ({@code -port 15722}, {@code -sse-interval=50ms}). */
@Command(name = ProbeMain.PROGRAM, sortOptions = false, usageHelpAutoWidth = true,
        description = "Fixture upstream for the shaper: AR-Proxy failure fixtures, demo scenarios and an Anthropic Messages API.")
final class ProbeOptions {
    @Option(names = {"-port", "--port"}, paramLabel = "N", description = "Listen port (default " + ProbeConfig.DEFAULT_PORT
            + "; overrides the port of -bind; 0 picks a free one)")
    Integer port;

    @Option(names = {"-bind", "--bind"}, paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + ProbeConfig.DEFAULT_PORT,
            description = "Listen address (default ${DEFAULT-VALUE})")
    String bind;

    @Option(names = {"-reply", "--reply"}, paramLabel = "TEXT", defaultValue = ProbeConfig.DEFAULT_REPLY,
            description = "Assistant text of every successful reply (default \"${DEFAULT-VALUE}\")")
    String reply;

    @Option(names = {"-failures", "--failures"}, paramLabel = "N", defaultValue = "" + ProbeConfig.DEFAULT_FAILURES,
            description = "Calls per path the flaky fixtures fail before succeeding; ?fails=N overrides (default ${DEFAULT-VALUE})")
    int failures;

    @Option(names = {"-retry-after", "--retry-after"}, paramLabel = "DURATION", defaultValue = "1s",
            description = "Retry-After of /retry429, whole seconds rounded up; ?after= overrides (default ${DEFAULT-VALUE})")
    Duration retryAfter;

    @Option(names = {"-sse-interval", "--sse-interval"}, paramLabel = "DURATION", defaultValue = "200ms",
            description = "Spacing of /slowsse text deltas; ?interval= overrides (default ${DEFAULT-VALUE})")
    Duration sseInterval;

    @Option(names = {"-slow-delay", "--slow-delay"}, paramLabel = "DURATION", defaultValue = "2s",
            description = "How long /slow waits before answering; ?delay= overrides (default ${DEFAULT-VALUE})")
    Duration slowDelay;

    @Option(names = {"-burst-status", "--burst-status"}, paramLabel = "CODE", defaultValue = "" + ProbeConfig.DEFAULT_BURST_STATUS,
            description = "Status /burst5xx fails with; ?status= overrides (default ${DEFAULT-VALUE})")
    int burstStatus;

    @Option(names = {"-rl-rpm", "--rl-rpm"}, paramLabel = "N", defaultValue = "50",
            description = "/ratelimited: requests per minute; ?rpm= overrides (default ${DEFAULT-VALUE})")
    int rlRpm;

    @Option(names = {"-rl-itpm", "--rl-itpm"}, paramLabel = "N", defaultValue = "30000",
            description = "/ratelimited: input tokens per minute (Chat: ?tpm= is input + output, default ITPM + OTPM); ?itpm= overrides (default ${DEFAULT-VALUE})")
    int rlItpm;

    @Option(names = {"-rl-otpm", "--rl-otpm"}, paramLabel = "N", defaultValue = "8000",
            description = "/ratelimited: output tokens per minute; ?otpm= overrides (default ${DEFAULT-VALUE})")
    int rlOtpm;

    @Option(names = {"-rl-output", "--rl-output"}, paramLabel = "N", defaultValue = "100",
            description = "/ratelimited: output tokens of a reply, at most the request's max_tokens; ?out= overrides (default ${DEFAULT-VALUE})")
    int rlOutput;
    @Option(names = {"-capacity", "--capacity"}, paramLabel = "N", defaultValue = "" + ProbeConfig.DEFAULT_CAPACITY,
            description = "Requests /capacity serves at once; POST /__probe/capacity?n=N changes it at run time (default ${DEFAULT-VALUE})")
    int capacity;

    @Option(names = {"-capacity-status", "--capacity-status"}, paramLabel = "CODE", defaultValue = "" + ProbeConfig.DEFAULT_CAPACITY_STATUS,
            description = "What /capacity answers above its capacity: 429, 529 or 200 (an SSE stream opening with an error) (default ${DEFAULT-VALUE})")
    int capacityStatus;

    @Option(names = {"-capacity-latency", "--capacity-latency"}, paramLabel = "DURATION", defaultValue = "100ms",
            description = "First-byte delay of /capacity far from its capacity; 1.5x and 2.5x in its last two slots (default ${DEFAULT-VALUE})")
    Duration capacityLatency;

    @Option(names = {"-h", "-help", "--help"}, usageHelp = true, description = "Show this help, with every fixture prefix, and exit")
    boolean help;

    ProbeConfig toConfig() {
        BindAddress address;
        try {
            address = BindAddress.parse(bind);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("-bind: " + e.getMessage());
        }
        if (port != null) {
            try {
                address = new BindAddress(address.host(), port);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("-" + e.getMessage());
            }
        }
        try {
            return new ProbeConfig(address, reply, failures, retryAfter, sseInterval, slowDelay, burstStatus,
                    new ProbeConfig.RateLimitDefaults(rlRpm, rlItpm, rlOtpm, rlOutput), capacity, capacityStatus, capacityLatency);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("-" + e.getMessage());
        }
    }
}
