package shaper.tui;

import java.util.Objects;

/**
 * One model's usage since start or the dashboard's reset, for the Tokens tab's table.
 *
 * @param model      the model label (the first 32 a provider sees, the rest {@code other})
 * @param requests   exchanges with a committed status that named or used this model
 * @param input      input tokens read from no cache and written to none
 * @param output     output tokens, reasoning included
 * @param cacheRead  input tokens read from the cache
 * @param cacheWrite input tokens written to the cache
 */
public record ModelRow(String model, long requests, long input, long output, long cacheRead, long cacheWrite) {
    public ModelRow {
        Objects.requireNonNull(model, "model");
    }

    /** Every token of the model, in and out. */
    long total() {
        return input + output + cacheRead + cacheWrite;
    }

    /** This row less {@code base} (the same model at the reset); this row itself without a base. */
    ModelRow since(ModelRow base) {
        if (base == null) {
            return this;
        }
        return new ModelRow(model, requests - base.requests, input - base.input, output - base.output, cacheRead - base.cacheRead,
                cacheWrite - base.cacheWrite);
    }
}
