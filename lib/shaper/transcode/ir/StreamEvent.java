package shaper.transcode.ir;

import java.util.Objects;

/**
 * What an upstream stream decoder reports, in wire order. A stream renderer turns these into the
 * client's event lifecycle; only it knows about blocks, indexes and terminals.
 */
public sealed interface StreamEvent {
    /** The first chunk's identity. */
    record Started(String id) implements StreamEvent {
        public Started {
            Objects.requireNonNull(id, "id");
        }
    }

    /** Answer text. */
    record TextDelta(String text) implements StreamEvent {
    }

    /** Provider reasoning text. */
    record ReasoningDelta(String text) implements StreamEvent {
    }

    /**
     * A fragment of tool call {@code index}; the first fragment of a call carries its id and name.
     *
     * @param id        null after the first fragment
     * @param name      null after the first fragment
     * @param arguments a fragment of the arguments JSON, possibly empty
     */
    record ToolCallDelta(int index, String id, String name, String arguments) implements StreamEvent {
        public ToolCallDelta {
            if (index < 0) {
                throw new IllegalArgumentException("tool call index: " + index + " (expected: >= 0)");
            }
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    /** The finish reason (a stream may repeat it; the first counts). */
    record Finished(StopReason reason, String stopSequence) implements StreamEvent {
        public Finished {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Usage, typically on a chunk after the finish reason. */
    record UsageReport(Usage usage) implements StreamEvent {
        public UsageReport {
            Objects.requireNonNull(usage, "usage");
        }
    }

    /** The upstream's end sentinel ({@code [DONE]}). */
    record Done() implements StreamEvent {
    }
}
