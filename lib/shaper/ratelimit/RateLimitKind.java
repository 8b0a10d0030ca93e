package shaper.ratelimit;

import java.util.Locale;

/**
 * What a limit counts. Every spelling derives from the constant's name: {@link #label()} is the
 * {@code kind} label of the series, {@link #anthropicName()} the part of Anthropic's header names,
 * {@link #word()} the short word of README and the journal.
 */
public enum RateLimitKind {
    REQUESTS, TOKENS, INPUT_TOKENS, OUTPUT_TOKENS;

    /** requests, tokens, input_tokens, output_tokens. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind's part of an {@code anthropic-ratelimit-<kind>-<field>} header name: {@code input-tokens}. */
    String anthropicName() {
        return label().replace('_', '-');
    }

    /** requests, tokens, input, output. */
    public String word() {
        return label().replace("_tokens", "");
    }

    @Override
    public String toString() {
        return label();
    }
}
