package shaper.usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One provider's usage totals: tokens by model and type, and exchanges by model and status class.
 * The model label is bounded by {@link ModelLabels}. Thread-safe; counting never blocks.
 */
public final class TokenCounters {
    /** The {@code type} label values, in exposition order. */
    public static final List<String> TYPES = List.of("input", "output", "cache_read", "cache_write", "reasoning");

    /** One counter value with its labels. */
    public record Sample(String model, String label, long value) {
    }

    private record Key(String model, String label) {
    }

    private final ModelLabels labels = new ModelLabels();
    private final Map<Key, LongAdder> tokens = new ConcurrentHashMap<>();
    private final Map<Key, LongAdder> requests = new ConcurrentHashMap<>();

    /**
     * Counts one finished exchange. An exchange that names no model and used nothing (a model list,
     * a health check) is not a model request and counts nowhere.
     *
     * @param status the committed status; 0 (nothing committed) counts no request
     */
    public void record(TokenUsage u, int status) {
        if (u.model().isEmpty() && u.source() == TokenUsage.Source.NONE) {
            return;
        }
        String model = labels.label(u.model());
        if (status >= 100 && status < 600) {
            add(requests, model, (status / 100) + "xx", 1);
        }
        long[] counts = {u.input(), u.output(), u.cacheRead(), u.cacheWrite(), u.reasoning()};
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                add(tokens, model, TYPES.get(i), counts[i]);
            }
        }
    }

    public List<Sample> tokens() {
        return samples(tokens);
    }

    public List<Sample> requests() {
        return samples(requests);
    }

    private static void add(Map<Key, LongAdder> map, String model, String label, long n) {
        map.computeIfAbsent(new Key(model, label), k -> new LongAdder()).add(n);
    }

    private static List<Sample> samples(Map<Key, LongAdder> map) {
        List<Sample> out = new ArrayList<>(map.size());
        map.forEach((k, v) -> out.add(new Sample(k.model(), k.label(), v.sum())));
        return out;
    }
}
