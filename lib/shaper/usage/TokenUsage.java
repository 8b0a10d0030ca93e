package shaper.usage;

import java.util.Objects;

/**
 * The tokens one exchange used, split as Anthropic counts them.
 *
 * @param model      the model, as the request named it or else the answer did; empty when unknown
 * @param input      input tokens neither read from nor written to a cache
 * @param output     every output token, reasoning included
 * @param cacheRead  input tokens read from a cache
 * @param cacheWrite input tokens written to a cache
 * @param reasoning  the reasoning part of {@code output} (0 where the dialect does not report it)
 * @param source     whether the upstream reported the counts, the proxy estimated them, or neither
 */
public record TokenUsage(String model, long input, long output, long cacheRead, long cacheWrite, long reasoning, Source source) {
    /** Where the counts come from. */
    public enum Source {
        /** The upstream's own usage object. */
        REPORTED,
        /** A 2xx answer without usage: estimated at about four characters a token. */
        ESTIMATED,
        /** Nothing to count: no answer, or an error answer. */
        NONE
    }

    /** No usage: an answer that was not a completion. */
    public static final TokenUsage NONE = new TokenUsage("", 0, 0, 0, 0, 0, Source.NONE);

    public TokenUsage {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(source, "source");
        if (input < 0 || output < 0 || cacheRead < 0 || cacheWrite < 0 || reasoning < 0) {
            throw new IllegalArgumentException("token counts: " + input + "/" + output + "/" + cacheRead + "/" + cacheWrite
                    + "/" + reasoning + " (expected: >= 0)");
        }
    }

    /** Every input token: uncached, read from a cache and written to one. */
    public long allInput() {
        return input + cacheRead + cacheWrite;
    }

    public boolean estimated() {
        return source == Source.ESTIMATED;
    }

    public TokenUsage withModel(String name) {
        return new TokenUsage(name == null ? "" : name, input, output, cacheRead, cacheWrite, reasoning, source);
    }
}
