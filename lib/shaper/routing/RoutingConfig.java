package shaper.routing;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import shaper.config.ConfigException;
import shaper.config.DurationFlags;
import shaper.config.GoDuration;
import shaper.mount.MountPrefix;

/**
 * The routed mount's settings, server scope.
 *
 * @param prefix        {@code -route-prefix}: where the routed mount listens; empty (the default) means no routed mount
 * @param routes        {@code -model-route}, repeatable, in order: the first whose pattern matches the request's model wins
 * @param fallbackAfter {@code -fallback-after}: the longest a request waits in one target's queue or token budget before
 *                      it leaves for the next target; zero (the default) waits the target's own {@code -queue-timeout}
 * @param pick          {@code -route-pick}: the targets in their written order (the default), or the one with the
 *                      shortest expected wait first
 * @param affinity      {@code -affinity}, {@code -affinity-size}, {@code -affinity-ttl}
 */
public record RoutingConfig(Optional<MountPrefix> prefix, List<ModelRoute> routes, Duration fallbackAfter, Pick pick,
                            AffinityConfig affinity) {
    /** No routed mount. */
    public static final RoutingConfig NONE = new RoutingConfig(Optional.empty(), List.of(), Duration.ZERO, Pick.ORDER, AffinityConfig.DEFAULT);

    /** {@code -route-pick}: in which order a route's targets are tried. */
    public enum Pick {
        /** As written. */
        ORDER,
        /** The target whose limiters would admit the request soonest first, the rest as written. */
        SHORTEST_WAIT;

        public static Pick parse(String text) {
            return switch (text) {
                case "order" -> ORDER;
                case "shortest-wait" -> SHORTEST_WAIT;
                default -> throw new ConfigException("-route-pick \"" + text + "\" (expected: order or shortest-wait)", "-route-pick", 0);
            };
        }

        public String label() {
            return this == ORDER ? "order" : "shortest-wait";
        }
    }

    /**
     * Session affinity.
     *
     * @param enabled {@code -affinity} (default true)
     * @param size    {@code -affinity-size}: sessions remembered, the least recently used forgotten first (default 10000)
     * @param ttl     {@code -affinity-ttl}: a session unseen this long is forgotten (default 1h)
     */
    public record AffinityConfig(boolean enabled, int size, Duration ttl) {
        public static final AffinityConfig DEFAULT = new AffinityConfig(true, 10_000, Duration.ofHours(1));

        public AffinityConfig {
            if (size < 1) {
                throw new ConfigException("-affinity-size: " + size + " (expected: >= 1)", "-affinity-size", 0);
            }
            DurationFlags.positive("-affinity-ttl", Objects.requireNonNull(ttl, "ttl"));
        }
    }

    public RoutingConfig {
        Objects.requireNonNull(prefix, "prefix");
        routes = List.copyOf(routes);
        DurationFlags.nonNegative("-fallback-after", Objects.requireNonNull(fallbackAfter, "fallbackAfter"));
        Objects.requireNonNull(pick, "pick");
        Objects.requireNonNull(affinity, "affinity");
        if (prefix.isPresent() && routes.isEmpty()) {
            throw new ConfigException("-route-prefix " + prefix.get() + " needs at least one -model-route", "-route-prefix", 0);
        }
        if (prefix.isEmpty() && !routes.isEmpty()) {
            throw new ConfigException("-model-route needs -route-prefix (the mount the routes serve)", "-model-route", 0);
        }
        if (prefix.isPresent() && prefix.get().isRoot()) {
            throw new ConfigException("-route-prefix must not be the root (the providers keep their own mounts)", "-route-prefix", 0);
        }
    }

    /** Whether a routed mount is configured. */
    public boolean enabled() {
        return prefix.isPresent();
    }

    /**
     * Checks the routes against the providers: every target names one, and the routed mount overlaps
     * no provider's mount.
     */
    public void validate(Set<String> providerNames, List<MountPrefix> providerPrefixes) {
        for (ModelRoute r : routes) {
            for (ModelRoute.Target t : r.targets()) {
                if (!providerNames.contains(t.provider())) {
                    throw new ConfigException("-model-route " + r + ": no provider named \"" + t.provider() + "\" (providers: "
                            + String.join(", ", providerNames) + ")", "-model-route", 0);
                }
            }
        }
        if (prefix.isPresent()) {
            for (MountPrefix p : providerPrefixes) {
                if (p.overlaps(prefix.get())) {
                    throw new ConfigException("-route-prefix " + prefix.get() + " overlaps a provider's -prefix " + p, "-route-prefix", 0);
                }
            }
        }
    }

    /** The first route whose pattern matches {@code model} (null for a body without one), or empty. */
    public Optional<ModelRoute> route(String model) {
        for (ModelRoute r : routes) {
            if (r.matches(model)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** {@code -fallback-after} as written, {@code 0s} when off. */
    public String fallbackAfterText() {
        return GoDuration.format(fallbackAfter);
    }
}
