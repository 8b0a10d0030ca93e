package shaper.transcode.ir;

import java.util.List;
import java.util.Objects;

/**
 * A complete model answer.
 *
 * @param id           the upstream's response id (non-empty)
 * @param content      text, thinking and tool-call parts in order
 * @param stop         why it stopped
 * @param stopSequence the matched stop sequence when {@code stop} is {@link StopReason#STOP_SEQUENCE}, else null
 */
public record Completion(String id, List<Part> content, StopReason stop, String stopSequence, Usage usage) {
    public Completion {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("id: empty (expected: non-empty)");
        }
        content = List.copyOf(content);
        for (Part p : content) {
            if (p instanceof Part.ToolResult || p instanceof Part.Image) {
                throw new IllegalArgumentException("answer content: " + p.getClass().getSimpleName() + " (expected: text, thinking or tool call)");
            }
        }
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(usage, "usage");
    }
}
