package shaper.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine.Option;
import shaper.config.ConfigException;
import shaper.mount.MountPrefix;
import shaper.routing.ModelRoute;
import shaper.routing.RoutingConfig;

/** Server-scope flags of the routed mount: routing by model, fallback between providers, session affinity. */
public final class RoutingOptions {
    @Option(names = {"-route-prefix", "--route-prefix"}, paramLabel = "PATH", description = "Mount routing by model here (must not overlap a provider's -prefix); unset: no routed mount") String prefix;

    @Option(names = {"-model-route", "--model-route"}, paramLabel = "PATTERN=TARGET[,TARGET...]", description = "Requests whose model matches the glob go to the targets in order, each PROVIDER[:UPSTREAM_MODEL]; first match wins; repeatable") List<String> routes = new ArrayList<>();

    @Option(names = {"-fallback-after", "--fallback-after"}, paramLabel = "D", defaultValue = "0s", converter = GoDurationConverter.class, description = "Leave a target's queue or token budget for the next target after waiting this long (0: the target's -queue-timeout)") Duration fallbackAfter;

    @Option(names = {"-route-pick", "--route-pick"}, paramLabel = "order|shortest-wait", defaultValue = "order", description = "Try a route's targets as written, or the one with the shortest expected wait first (default ${DEFAULT-VALUE})") String pick;

    @Option(names = {"-affinity", "--affinity"}, arity = "0..1", fallbackValue = "true", defaultValue = "true", description = "Keep a session (Claude Code's and Codex's session headers) on the target that last served it (default ${DEFAULT-VALUE})") boolean affinity;

    @Option(names = {"-affinity-size", "--affinity-size"}, paramLabel = "N", defaultValue = "10000", description = "Sessions the affinity table remembers, least recently used forgotten first (default ${DEFAULT-VALUE})") int affinitySize;

    @Option(names = {"-affinity-ttl", "--affinity-ttl"}, paramLabel = "D", defaultValue = "1h", converter = GoDurationConverter.class, description = "Forget a session unseen this long (default 1h)") Duration affinityTtl;

    RoutingConfig toConfig() {
        Optional<MountPrefix> mount;
        try {
            mount = prefix == null || prefix.isBlank() ? Optional.empty() : Optional.of(MountPrefix.parse(prefix));
        } catch (ConfigException e) {
            throw new ConfigException("-route-prefix: " + e.getMessage(), "-route-prefix", 0);
        }
        return new RoutingConfig(mount, routes.stream().map(ModelRoute::parse).toList(), fallbackAfter, RoutingConfig.Pick.parse(pick),
                new RoutingConfig.AffinityConfig(affinity, affinitySize, affinityTtl));
    }
}
