package shaper.budget;

import java.util.EnumMap;
import java.util.Map;

import shaper.ratelimit.RateLimitKind;

/**
 * One provider's budgets ({@code -rpm}, {@code -tpm}, {@code -itpm}, {@code -otpm}; 0 = off) and
 * whether the upstream's headers restate them ({@code -budget-from-headers}).
 */
public record BudgetConfig(long rpm, long tpm, long itpm, long otpm, boolean fromHeaders) {
    public static final BudgetConfig OFF = new BudgetConfig(0, 0, 0, 0, false);

    public BudgetConfig {
        if (rpm < 0 || tpm < 0 || itpm < 0 || otpm < 0) {
            throw new IllegalArgumentException("-rpm/-tpm/-itpm/-otpm: " + rpm + "/" + tpm + "/" + itpm + "/" + otpm + " (expected: >= 0)");
        }
    }

    /** Whether admission is paced at all. */
    public boolean enabled() {
        return fromHeaders || rpm > 0 || tpm > 0 || itpm > 0 || otpm > 0;
    }

    /** The static budgets that are on, per kind. */
    Map<RateLimitKind, Long> statics() {
        Map<RateLimitKind, Long> m = new EnumMap<>(RateLimitKind.class);
        if (rpm > 0) {
            m.put(RateLimitKind.REQUESTS, rpm);
        }
        if (tpm > 0) {
            m.put(RateLimitKind.TOKENS, tpm);
        }
        if (itpm > 0) {
            m.put(RateLimitKind.INPUT_TOKENS, itpm);
        }
        if (otpm > 0) {
            m.put(RateLimitKind.OUTPUT_TOKENS, otpm);
        }
        return m;
    }
}
