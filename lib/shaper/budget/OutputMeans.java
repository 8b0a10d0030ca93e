package shaper.budget;

import java.util.concurrent.ConcurrentHashMap;

/**
 * What each model has recently produced per request: an exponentially weighted running mean of
 * the actual output tokens (weight {@value #WEIGHT} for the newest exchange), starting at
 * {@value #START} tokens until a model has finished one exchange. At most {@value #MODELS} models
 * keep their own mean; later ones share one. Thread-safe.
 */
final class OutputMeans {
    /** The documented starting value of a model's mean. */
    static final long START = 1024;
    static final double WEIGHT = 0.2;
    static final int MODELS = 64;
    private static final String SHARED = "\u0000other";

    private final ConcurrentHashMap<String, Double> means = new ConcurrentHashMap<>();

    long mean(String model) {
        Double m = means.get(key(model));
        return m == null ? START : Math.round(m);
    }

    void record(String model, long output) {
        means.merge(key(model), (double) output, (old, now) -> old + WEIGHT * (now - old));
    }

    private String key(String model) {
        return means.containsKey(model) || means.size() < MODELS ? model : SHARED;
    }
}
