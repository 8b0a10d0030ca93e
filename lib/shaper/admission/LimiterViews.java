package shaper.admission;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterView;

/**
 * One provider's limiter views, each named by the role it plays in admission, so a reader (the TUI,
 * the metrics exporter) never has to work out which limiter is which from its place in a list.
 * Immutable; each view is taken at its own instant by {@link ProviderLimiters#views()}.
 *
 * @param routes per-route limiters ({@code -limit PATTERN:N}) by route class key, in configuration
 *               order; empty when no route has its own {@code :N}
 * @param pool   the default pool ({@code -concurrency}); always present
 * @param global the {@code -global-concurrency} limiter; empty when not configured
 * @param gate   the large-request gate ({@code -big-ctx-tokens}); empty when not configured
 */
public record LimiterViews(Map<String, LimiterView> routes, LimiterView pool, Optional<LimiterView> global,
                           Optional<LimiterView> gate) {
    /** The default pool's key. */
    public static final String POOL = "default";
    /** The global limiter's key. */
    public static final String GLOBAL = "global";
    /** The large-request gate's key. */
    public static final String GATE = "large-request gate";

    public LimiterViews {
        routes = Collections.unmodifiableMap(new LinkedHashMap<>(routes));
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(global, "global");
        Objects.requireNonNull(gate, "gate");
    }

    /**
     * Every view by its key: the route class keys, then {@link #POOL}, {@link #GLOBAL} and
     * {@link #GATE} when present. These keys name a limiter in {@link ProviderLimiters#limiter} and
     * label it in metrics.
     */
    public Map<String, LimiterView> byKey() {
        Map<String, LimiterView> all = new LinkedHashMap<>(routes);
        all.put(POOL, pool);
        global.ifPresent(v -> all.put(GLOBAL, v));
        gate.ifPresent(v -> all.put(GATE, v));
        return Collections.unmodifiableMap(all);
    }

    /** Every limiter's counts, in the order of {@link #byKey()}: for sums over all of them. */
    public List<LimiterSnapshot> counts() {
        List<LimiterSnapshot> all = new ArrayList<>();
        byKey().values().forEach(v -> all.add(v.counts()));
        return List.copyOf(all);
    }
}
