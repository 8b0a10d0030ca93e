package shaper.cli;

import java.time.Duration;

import picocli.CommandLine.Option;
import shaper.breaker.BreakerConfig;

/** Provider-scope flags of the circuit breaker. */
public final class BreakerOptions {
    @Option(names = {"-circuit-breaker", "--circuit-breaker"}, arity = "0..1", fallbackValue = "true", defaultValue = "true",
            description = "Enable the circuit breaker (default ${DEFAULT-VALUE})")
    boolean enabled;

    @Option(names = {"-cb-threshold", "--cb-threshold"}, paramLabel = "N", defaultValue = "5",
            description = "Failures within the window that open the circuit (default ${DEFAULT-VALUE})")
    int threshold;

    @Option(names = {"-cb-window", "--cb-window"}, paramLabel = "DURATION", defaultValue = "30s",
            description = "Failure counting window (default ${DEFAULT-VALUE})")
    Duration window;

    @Option(names = {"-cb-open-timeout", "--cb-open-timeout"}, paramLabel = "DURATION", defaultValue = "10s",
            description = "Time before the open circuit lets one probe through (default ${DEFAULT-VALUE})")
    Duration openTimeout;

    @Option(names = {"-cb-max-open-timeout", "--cb-max-open-timeout"}, paramLabel = "DURATION", defaultValue = "120s",
            description = "Max open timeout after backoff (default ${DEFAULT-VALUE})")
    Duration maxOpenTimeout;

    @Option(names = {"-cb-penalty", "--cb-penalty"}, paramLabel = "DURATION", defaultValue = "2s",
            description = "Base phantom concurrency hold after an upstream failure (default ${DEFAULT-VALUE})")
    Duration penalty;

    @Option(names = {"-cb-max-penalty", "--cb-max-penalty"}, paramLabel = "DURATION", defaultValue = "60s",
            description = "Max phantom concurrency hold (default ${DEFAULT-VALUE})")
    Duration maxPenalty;

    BreakerConfig toConfig() {
        return new BreakerConfig(enabled, threshold, window, openTimeout, maxOpenTimeout, penalty, maxPenalty);
    }
}
