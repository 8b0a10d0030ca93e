package shaper.ratelimit;

import java.util.Locale;

/** What a limit counts; {@link #label()} is the {@code kind} label of the series. */
public enum RateLimitKind {
    REQUESTS("requests", "requests"),
    TOKENS("tokens", "tokens"),
    INPUT_TOKENS("input_tokens", "input-tokens"),
    OUTPUT_TOKENS("output_tokens", "output-tokens");

    private final String label;
    private final String anthropicName;

    RateLimitKind(String label, String anthropicName) {
        this.label = label;
        this.anthropicName = anthropicName;
    }

    public String label() {
        return label;
    }

    /** The kind's part of an {@code anthropic-ratelimit-<kind>-<field>} header name. */
    String anthropicName() {
        return anthropicName;
    }

    /** The short word README and the journal use: requests, tokens, input, output. */
    public String word() {
        return switch (this) {
            case REQUESTS -> "requests";
            case TOKENS -> "tokens";
            case INPUT_TOKENS -> "input";
            case OUTPUT_TOKENS -> "output";
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
