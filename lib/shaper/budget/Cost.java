package shaper.budget;

import java.util.Objects;

import shaper.ratelimit.RateLimitKind;
import shaper.usage.TokenUsage;

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

    /**
     * What {@code actual} used of {@code kind} beyond this estimate (negative: tokens to give back),
     * for the reconciliation. Nothing reported gives back the whole estimate; the request itself
     * stays counted (0 for {@code requests}). Cache reads do not count toward input tokens, as
     * Anthropic counts its ITPM.
     */
    public long overrun(RateLimitKind kind, TokenUsage actual) {
        if (kind == RateLimitKind.REQUESTS) {
            return 0;
        }
        long used = actual.source() == TokenUsage.Source.NONE ? 0 : switch (kind) {
            case REQUESTS -> 1;
            case TOKENS -> actual.allInput() + actual.output();
            case INPUT_TOKENS -> actual.input() + actual.cacheWrite();
            case OUTPUT_TOKENS -> actual.output();
        };
        return used - of(kind);
    }
}
