package shaper.transcode.ir;

import java.util.Objects;

/** What the client asked of the model's reasoning. */
public sealed interface Reasoning {
    /** Nothing asked. */
    record Unspecified() implements Reasoning {
    }

    /** Anthropic {@code adaptive}: the model decides. */
    record Adaptive() implements Reasoning {
    }

    /** Anthropic {@code disabled}. */
    record Disabled() implements Reasoning {
    }

    /** Anthropic {@code enabled} with a token budget. */
    record Budget(int tokens) implements Reasoning {
        public Budget {
            if (tokens < 0) {
                throw new IllegalArgumentException("budget_tokens: " + tokens + " (expected: >= 0)");
            }
        }

        /** The documented threshold table: below 1024 minimal, below 4096 low, below 16384 medium, else high. */
        public String effort() {
            return tokens < 1024 ? "minimal" : tokens < 4096 ? "low" : tokens < 16384 ? "medium" : "high";
        }
    }

    /**
     * An effort word a target takes (low, medium, high, ...).
     *
     * @param path the client field it came from, named when the target cannot take it
     */
    record Effort(String effort, String path) implements Reasoning {
        public Effort {
            Objects.requireNonNull(effort, "effort");
            Objects.requireNonNull(path, "path");
        }

        /** A Responses client's {@code reasoning.effort}. */
        public Effort(String effort) {
            this(effort, "reasoning.effort");
        }
    }
}
