package shaper.usage;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounds the {@code model} label of one provider's series: the first {@value #LIMIT} model names
 * seen keep their own label, every later one is {@value #OTHER}, so a client inventing model names
 * cannot grow the metrics without bound. An empty name is {@value #UNKNOWN}. Thread-safe.
 */
public final class ModelLabels {
    public static final int LIMIT = 32;
    public static final String OTHER = "other";
    public static final String UNKNOWN = "unknown";

    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    /** The label for {@code model}. */
    public String label(String model) {
        if (model == null || model.isEmpty()) {
            return UNKNOWN;
        }
        if (seen.contains(model)) {
            return model;
        }
        synchronized (seen) {
            if (seen.size() < LIMIT) {
                seen.add(model);
                return model;
            }
        }
        return seen.contains(model) ? model : OTHER;
    }
}
