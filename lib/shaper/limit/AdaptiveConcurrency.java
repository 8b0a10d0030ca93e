package shaper.limit;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Turns a limiter's configured limit into a ceiling and lets it find its own limit below it
 * ({@code -adaptive-concurrency}); see {@link AdaptiveLimit} for the algorithm.
 *
 * @param min      the lowest limit it may fall to ({@code -concurrency-min}), at least 1; a ceiling below
 *                 it wins (the limit then never moves)
 * @param onChange told of every move, outside the limiter's lock; not null
 */
public record AdaptiveConcurrency(int min, Consumer<LimitChange> onChange) {
    public AdaptiveConcurrency {
        if (min < 1) {
            throw new IllegalArgumentException("min: " + min + " (expected: >= 1)");
        }
        Objects.requireNonNull(onChange, "onChange");
    }
}
