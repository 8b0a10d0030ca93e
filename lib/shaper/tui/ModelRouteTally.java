package shaper.tui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import shaper.observe.ExchangeRecord;
import shaper.observe.RouteTrail;
import shaper.routing.ModelRoute;

/**
 * Running totals of the routed mount for the Routes tab: per route pattern, exchanges by the target
 * that served them and fallbacks by where they moved and why. Fed each provider's journal records
 * (a routed exchange is recorded once, by the provider that answered it), each counted once by
 * journal id. Confined to the render loop's thread.
 */
final class ModelRouteTally {
    /** Distinct patterns and moves kept: a reload cycling patterns cannot grow this without bound. */
    static final int MAX_KEYS = 256;

    private static final class Counts {
        final Map<String, Long> served = new HashMap<>();
        final Map<String, Long> fallbacks = new HashMap<>();
    }

    private final Map<String, Counts> byPattern = new HashMap<>();
    /** Per provider, the journal ids seen at its last call (see {@link RouteTally} for why a set). */
    private final Map<String, Set<Long>> seen = new HashMap<>();

    /** Counts the routed records of {@code provider}'s journal not counted before. */
    void absorb(String provider, List<ExchangeRecord> records) {
        Set<Long> before = seen.getOrDefault(provider, Set.of());
        Set<Long> now = new HashSet<>(records.size() * 2);
        for (ExchangeRecord r : records) {
            now.add(r.id());
            if (!before.contains(r.id()) && r.routing().routed()) {
                count(r.routing());
            }
        }
        seen.put(provider, now);
    }

    private void count(RouteTrail trail) {
        Counts c = byPattern.get(trail.route());
        if (c == null) {
            if (byPattern.size() >= MAX_KEYS) {
                return;
            }
            c = new Counts();
            byPattern.put(trail.route(), c);
        }
        bump(c.served, trail.target());
        for (RouteTrail.Move m : trail.moves()) {
            bump(c.fallbacks, m.from() + "→" + m.to() + " " + m.why());
        }
    }

    private static void bump(Map<String, Long> m, String key) {
        if (m.containsKey(key) || m.size() < MAX_KEYS) {
            m.merge(key, 1L, Long::sum);
        }
    }

    /** The routes in force, in configuration order, each with its totals. */
    List<ModelRouteStat> stats(List<ModelRoute> routes) {
        List<ModelRouteStat> out = new ArrayList<>(routes.size());
        for (ModelRoute r : routes) {
            Counts c = byPattern.getOrDefault(r.pattern(), new Counts());
            Map<String, Long> served = new LinkedHashMap<>();
            r.targets().forEach(t -> served.put(t.provider(), c.served.getOrDefault(t.provider(), 0L)));
            c.served.forEach(served::putIfAbsent);
            Map<String, Long> fallbacks = new LinkedHashMap<>();
            c.fallbacks.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey())).forEach(e -> fallbacks.put(e.getKey(), e.getValue()));
            out.add(new ModelRouteStat(r.pattern(), r.targets().stream().map(ModelRoute.Target::toString).toList(), served, fallbacks));
        }
        return out;
    }

    /** Forgets the totals; records already seen stay uncounted. */
    void reset() {
        byPattern.clear();
    }
}
