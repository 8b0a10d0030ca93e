package shaper.budget;

import java.util.Objects;

import shaper.ratelimit.RateLimitKind;

/**
 * What a request is expected to take from each budget, estimated at admission (see
 * {@link CostEstimator}) and reconciled from the actual usage when the exchange ends.
 *
 * @param model  the model the request names, empty when unknown (output means are kept per model)
 * @param input  estimated input tokens
 * @param output estimated output tokens
 */
public record Cost(String model, long input, long output) {
    /** A request that costs nothing but itself (no body to read). */
    public static final Cost ONE_REQUEST = new Cost("", 0, 0);

    public Cost {
        Objects.requireNonNull(model, "model");
        if (input < 0 || output < 0) {
            throw new IllegalArgumentException("input/output: " + input + "/" + output + " (expected: >= 0)");
        }
    }

    /** The amount of {@code kind} this cost takes. */
    public long of(RateLimitKind kind) {
        return switch (kind) {
            case REQUESTS -> 1;
            case TOKENS -> input + output;
            case INPUT_TOKENS -> input;
            case OUTPUT_TOKENS -> output;
        };
    }
}
