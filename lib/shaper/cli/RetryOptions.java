package shaper.cli;

import java.time.Duration;

import picocli.CommandLine.Option;
import shaper.config.ConfigException;
import shaper.retry.RetryConfig;

/** Provider-scope flags of the retry transport: retries by status and transport error, and by the error body's wording. */
public final class RetryOptions {
    @Option(names = {"-retry", "--retry"}, paramLabel = "N", defaultValue = "-1",
            description = "Max retry attempts (-1 = unlimited within -retry-deadline, 0 = disabled)")
    int retry;

    @Option(names = {"-retry-wait-min", "--retry-wait-min"}, paramLabel = "DURATION", defaultValue = "500ms",
            description = "Minimum retry wait, doubled per attempt with ±25%% jitter (default ${DEFAULT-VALUE})")
    Duration waitMin;

    @Option(names = {"-retry-wait-max", "--retry-wait-max"}, paramLabel = "DURATION", defaultValue = "30s",
            description = "Maximum retry wait; a longer Retry-After still wins (default ${DEFAULT-VALUE})")
    Duration waitMax;

    @Option(names = {"-retry-min-delay", "--retry-min-delay"}, paramLabel = "DURATION", defaultValue = "1s",
            description = "Floor on every retry wait (default ${DEFAULT-VALUE})")
    Duration minDelay;

    @Option(names = {"-retry-skip-429", "--retry-skip-429"}, arity = "0..1", fallbackValue = "true", defaultValue = "true",
            description = "Never retry 429 responses (default ${DEFAULT-VALUE})")
    boolean skip429;

    @Option(names = {"-retry-max-body-mb", "--retry-max-body-mb"}, paramLabel = "MB", defaultValue = "5",
            description = "Largest request body (MiB) buffered for replay; larger bodies are sent once (default ${DEFAULT-VALUE})")
    int maxBodyMb;

    @Option(names = {"-retry-status", "--retry-status"}, paramLabel = "LIST", defaultValue = "422,429",
            description = "Statuses whose body is matched for rate-limit/transient wording (default ${DEFAULT-VALUE})")
    String retryStatus;

    @Option(names = {"-retry-deadline", "--retry-deadline"}, paramLabel = "DURATION", defaultValue = "5m",
            description = "Budget for all attempts plus backoff of one request (default ${DEFAULT-VALUE})")
    Duration deadline;

    @Option(names = {"-retry-keepalive", "--retry-keepalive"}, paramLabel = "DURATION", defaultValue = "10s",
            description = "Keepalive interval while a streaming request waits on retry backoff (0 = none; default ${DEFAULT-VALUE})")
    Duration keepalive;

    @Option(names = {"-upstream-timeout", "--upstream-timeout"}, paramLabel = "DURATION", defaultValue = "10m",
            description = "Bound on one whole upstream call, the response body included (default ${DEFAULT-VALUE})")
    Duration upstreamTimeout;

    @Option(names = {"-inspect-sse", "--inspect-sse"}, arity = "0..1", fallbackValue = "true", defaultValue = "true",
            description = "Inspect the first 64 KiB of an HTTP 200 event stream for an early error (default ${DEFAULT-VALUE})")
    boolean inspectSse;

    @Option(names = {"-strip-stale-reasoning", "--strip-stale-reasoning"}, arity = "0..1", fallbackValue = "true",
            defaultValue = "true", description = "Retry once without cc-switch reasoning carriers after a resource-mismatch 400 (default ${DEFAULT-VALUE})")
    boolean stripStaleReasoning;

    RetryConfig toConfig() {
        try {
            return RetryConfig.builder().retry(retry).waitMin(waitMin).waitMax(waitMax).minDelay(minDelay).skip429(skip429)
                    .maxBodyMb(maxBodyMb).retryStatus(RetryConfig.parseStatusList(retryStatus)).deadline(deadline)
                    .keepalive(keepalive).upstreamTimeout(upstreamTimeout).inspectSse(inspectSse)
                    .stripStaleReasoning(stripStaleReasoning).build();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
