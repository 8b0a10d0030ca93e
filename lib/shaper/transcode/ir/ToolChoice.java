package shaper.transcode.ir;

/** How the model may use tools. */
public sealed interface ToolChoice {
    /** The model decides. */
    record Auto() implements ToolChoice {
    }

    /** No tool calls. */
    record None() implements ToolChoice {
    }

    /** At least one tool call, any tool. */
    record Required() implements ToolChoice {
    }

    /** This tool. */
    record Named(String name) implements ToolChoice {
        public Named {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("tool choice name: empty (expected: non-empty)");
            }
        }
    }
}
