package shaper.cli;

import java.net.URI;
import java.time.Duration;

import picocli.CommandLine.Option;
import shaper.cluster.ClusterConfig;
import shaper.cluster.RedisFallback;
import shaper.config.ConfigException;

/** Provider-scope flags of cluster mode: where the provider's limiters keep their slots. */
public final class ClusterOptions {
    @Option(names = {"-limiter-backend", "--limiter-backend"}, paramLabel = "URL",
            description = "Share this provider's limits with other instances through redis://host:port[/db] (default: in-process)")
    String backend;

    @Option(names = {"-limiter-namespace", "--limiter-namespace"}, paramLabel = "NAME",
            description = "Redis key prefix shared by the instances of one budget (default: derived from -upstream)")
    String namespace;

    @Option(names = {"-limiter-redis-fallback", "--limiter-redis-fallback"}, paramLabel = "MODE", defaultValue = "local",
            description = "While Redis is unreachable: local (each instance its own limits) or closed (503) (default ${DEFAULT-VALUE})")
    String fallback;

    @Option(names = {"-limiter-lease", "--limiter-lease"}, paramLabel = "DURATION", defaultValue = "15s",
            description = "Lifetime of a permit in Redis without renewal: how long a crashed instance's slots stay taken (default ${DEFAULT-VALUE})")
    Duration lease;

    @Option(names = {"-limiter-redis-timeout", "--limiter-redis-timeout"}, paramLabel = "DURATION", defaultValue = "2s",
            description = "A Redis call slower than this counts as Redis unreachable: the fallback takes over (default ${DEFAULT-VALUE})")
    Duration timeout;

    ClusterConfig toConfig() {
        URI uri = null;
        if (backend != null) {
            try {
                uri = new URI(backend);
            } catch (java.net.URISyntaxException e) {
                throw new ConfigException("-limiter-backend: not a URL: " + e.getReason());
            }
        }
        return new ClusterConfig(uri, namespace, RedisFallback.parse(fallback), lease, timeout);
    }
}
