package shaper.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import shaper.admission.AdmissionConfig;

/** Provider-scope flags of bounded concurrency: route patterns, limiters, queue semantics, N+1 protection. */
public final class AdmissionOptions {
    @Option(names = {"-limit", "--limit"}, paramLabel = "PATTERN",
            description = "Route pattern to limit: 'METHOD /path[:N|:unlimited][@group]', end-anchored suffix match; repeatable (default: common AI endpoints)")
    List<String> limits = new ArrayList<>();

    @Option(names = {"-limit-all", "--limit-all"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Limit all requests, not just matching routes (default ${DEFAULT-VALUE})")
    boolean limitAll;

    @Option(names = {"-concurrency", "--concurrency"}, paramLabel = "N", defaultValue = "4",
            description = "Max concurrent limited requests in the default pool (default ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = {"-global-concurrency", "--global-concurrency"}, paramLabel = "N", defaultValue = "0",
            description = "Global concurrency limit over limited and passthrough requests (0 = disabled)")
    int globalConcurrency;

    @Option(names = {"-queue-timeout", "--queue-timeout"}, paramLabel = "DURATION", defaultValue = "30s",
            description = "Max wait for a concurrency slot; 504 'queue timeout' after it (0 = wait forever; default ${DEFAULT-VALUE})")
    Duration queueTimeout;

    @Option(names = {"-queue-depth", "--queue-depth"}, paramLabel = "N", defaultValue = "0",
            description = "Max requests waiting for a slot at once; beyond it 429 + Retry-After at once (0 = unbounded)")
    int queueDepth;

    @Option(names = {"-queue-comments", "--queue-comments"}, paramLabel = "DURATION", defaultValue = "0",
            description = "SSE ': queue-wait' comment interval for streaming requests while queued (0 = disabled)")
    Duration queueComments;

    @Option(names = {"-release-cooldown", "--release-cooldown"}, paramLabel = "DURATION", defaultValue = "200ms",
            description = "Delay after releasing a slot before re-admission (default ${DEFAULT-VALUE})")
    Duration releaseCooldown;

    @Option(names = {"-cancel-cooldown", "--cancel-cooldown"}, paramLabel = "DURATION", defaultValue = "200ms",
            description = "Hold the slot after a client disconnects once an upstream attempt started (default ${DEFAULT-VALUE})")
    Duration cancelCooldown;

    @Option(names = {"-failure-hold", "--failure-hold"}, paramLabel = "DURATION", defaultValue = "2s",
            description = "Hold the slot after an upstream failure when the breaker penalty does not apply (default ${DEFAULT-VALUE})")
    Duration failureHold;

    @Option(names = {"-adaptive-headroom", "--adaptive-headroom"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Withhold one slot after a 429, restoring it after a quiet window (default ${DEFAULT-VALUE})")
    boolean adaptiveHeadroom;

    @Option(names = {"-adaptive-headroom-window", "--adaptive-headroom-window"}, paramLabel = "DURATION", defaultValue = "30s",
            description = "How long the withheld slot stays withheld; each new 429 restarts it (default ${DEFAULT-VALUE})")
    Duration adaptiveHeadroomWindow;

    @Option(names = {"-upstream-disable-keep-alives", "--upstream-disable-keep-alives"}, arity = "0..1", fallbackValue = "true",
            defaultValue = "false", description = "Use a fresh upstream TCP connection for every request (default ${DEFAULT-VALUE})")
    boolean upstreamDisableKeepAlives;

    AdmissionConfig toConfig() {
        return new AdmissionConfig(limits, limitAll, concurrency, globalConcurrency, queueTimeout, queueDepth, queueComments,
                releaseCooldown, cancelCooldown, failureHold, adaptiveHeadroom, adaptiveHeadroomWindow, upstreamDisableKeepAlives);
    }
}
