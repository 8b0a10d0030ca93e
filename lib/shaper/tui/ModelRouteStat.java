package shaper.tui;

import java.util.List;
import java.util.Map;

/**
 * One route of the routed mount as the Routes tab shows it: its pattern and targets, and where the
 * exchanges it matched went since the dashboard started or was reset.
 *
 * @param pattern   the glob on the request's model
 * @param targets   {@code PROVIDER[:MODEL]} in the order they are tried
 * @param served    finished exchanges per provider that served them last, in target order
 * @param fallbacks moves per {@code from→to why}, busiest first
 */
public record ModelRouteStat(String pattern, List<String> targets, Map<String, Long> served, Map<String, Long> fallbacks) {
    public ModelRouteStat {
        targets = List.copyOf(targets);
        served = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(served));
        fallbacks = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fallbacks));
    }

    /** Every finished exchange of the route. */
    public long total() {
        return served.values().stream().mapToLong(Long::longValue).sum();
    }
}
