package shaper.sse;

import java.util.List;
import java.util.Objects;

/**
 * One complete server-sent event block, as {@link SseFrameParser} dispatches it at a blank line.
 *
 * @param event    the {@code event:} field, or null when absent (browsers then call it "message")
 * @param data     the {@code data:} lines joined with {@code \n}, or null when the frame had no data line
 * @param id       the {@code id:} field, or null when absent
 * @param comments the text after {@code :} of each comment line, in order; never null
 */
public record SseFrame(String event, String data, String id, List<String> comments) {
    public SseFrame {
        comments = List.copyOf(Objects.requireNonNull(comments, "comments"));
    }

    /** True when the frame holds only comments (keepalives such as {@code : ping}). */
    public boolean isCommentOnly() {
        return event == null && data == null && id == null;
    }
}
