package shaper.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import shaper.route.RoutePattern;
import shaper.route.RouteTable;

/**
 * The {@code method} and {@code path} labels of each limited route key, for the per-route queue
 * families. A pattern without a group is labelled with its own method and path
 * ({@code POST}, {@code /v1/messages}); a group with {@code @name} as the path and its patterns'
 * method, or {@code *} when they differ. Built once from the provider's route table.
 */
final class RouteLabels {
    /** The two label values of one route key. */
    record Label(String method, String path) {
    }

    private final Map<String, Label> byKey;

    private RouteLabels(Map<String, Label> byKey) {
        this.byKey = Map.copyOf(byKey);
    }

    static RouteLabels of(List<String> limits) {
        Map<String, Label> map = new HashMap<>();
        for (RoutePattern p : RouteTable.of(limits).patterns()) {
            if (p.unlimited()) {
                continue;
            }
            String key = p.limiterKey();
            if (p.group() == null) {
                map.putIfAbsent(key, new Label(p.method(), "/" + String.join("/", p.segments())));
            } else {
                Label seen = map.get(key);
                String method = seen == null || seen.method().equals(p.method()) ? p.method() : "*";
                map.put(key, new Label(method, "@" + p.group()));
            }
        }
        return new RouteLabels(map);
    }

    /** The labels of {@code key}, or null for a key no pattern declares (the -limit-all default pool). */
    Label of(String key) {
        return byKey.get(key);
    }
}
