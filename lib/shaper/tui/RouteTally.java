package shaper.tui;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;

/**
 * Running per-route totals for the Routes tab, fed each finished exchange once (by journal id), with
 * the req/s column counted over the last {@link #WINDOW}. Confined to the render loop's thread.
 */
final class RouteTally {
    static final Duration WINDOW = Duration.ofSeconds(10);
    /** Distinct routes kept; a client probing random paths cannot grow this without bound. */
    static final int MAX_ROUTES = 256;

    private static final class Counts {
        long total;
        long ok;
        long client;
        long server;
        long timeouts;
        final ArrayDeque<Instant> recent = new ArrayDeque<>();
    }

    private final Map<String, Counts> byRoute = new HashMap<>();
    /**
     * The ids of the journal's rows at the last call. Ids follow arrival while rows enter the journal
     * as they finish, so "newer than the last id" would miss a slow exchange; a row leaves the ring
     * for good, so the previous window's ids are all that must be remembered.
     */
    private Set<Long> seen = Set.of();

    /** Counts every row not counted before. A row that came and left the ring between two calls is missed. */
    void absorb(List<RequestRow> rows) {
        Set<Long> now = new HashSet<>(rows.size() * 2);
        for (RequestRow r : rows) {
            now.add(r.id());
            if (!seen.contains(r.id())) {
                count(r);
            }
        }
        seen = now;
    }

    private void count(RequestRow r) {
        String route = r.method() + " " + r.path();
        Counts c = byRoute.get(route);
        if (c == null) {
            if (byRoute.size() >= MAX_ROUTES) {
                route = "(other routes)";
                c = byRoute.computeIfAbsent(route, k -> new Counts());
            } else {
                c = new Counts();
                byRoute.put(route, c);
            }
        }
        c.total++;
        int s = r.status();
        if (s >= 200 && s < 300) {
            c.ok++;
        } else if (s >= 400 && s < 500) {
            c.client++;
        } else if (s >= 500 && s < 600) {
            c.server++;
        }
        if (r.queueTimeout()) {
            c.timeouts++;
        }
        c.recent.addLast(r.arrived());
    }

    /** Totals per route, busiest first; {@code now} ends the req/s window. */
    List<RouteStat> stats(Instant now) {
        Instant from = now.minus(WINDOW);
        List<RouteStat> out = new ArrayList<>(byRoute.size());
        for (Map.Entry<String, Counts> e : byRoute.entrySet()) {
            Counts c = e.getValue();
            while (!c.recent.isEmpty() && c.recent.peekFirst().isBefore(from)) {
                c.recent.removeFirst();
            }
            double rate = c.recent.size() / (double) WINDOW.toSeconds();
            out.add(new RouteStat(e.getKey(), c.total, c.ok, c.client, c.server, c.timeouts, rate));
        }
        out.sort(Comparator.comparingLong(RouteStat::total).reversed().thenComparing(RouteStat::route));
        return out;
    }

    /** Forgets the totals; rows already seen stay uncounted. */
    void reset() {
        byRoute.clear();
    }
}
