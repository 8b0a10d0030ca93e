package shaper.transcode.ir;

import java.util.List;
import java.util.Objects;

/** One piece of a turn's content. */
public sealed interface Part {
    /**
     * The texts of {@code parts} (all {@link Text}; a system turn holds nothing else) joined by
     * newlines: how a dialect with one system string carries a multi-part system turn. Shared by
     * the Chat and Responses request renderers.
     */
    static String joinText(List<Part> parts) {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(((Text) p).text());
        }
        return sb.toString();
    }

    /** Plain text; may be empty. */
    record Text(String text) implements Part {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * An image, inline ({@code data} base64 with a media type) or by {@code url}; exactly one is set.
     *
     * @param detail the client's detail, or null when its dialect has none
     */
    record Image(String mediaType, String data, String url, String detail) implements Part {
        public Image {
            if ((data == null) == (url == null)) {
                throw new IllegalArgumentException("image: exactly one of data and url (expected: one)");
            }
            if (data != null) {
                Objects.requireNonNull(mediaType, "mediaType");
            }
        }

        /** The {@code data:} URL or the plain URL. */
        public String asUrl() {
            return url != null ? url : "data:" + mediaType + ";base64," + data;
        }
    }

    /**
     * A model's call of a client tool.
     *
     * @param arguments the arguments as JSON object text ({@code {}} when none)
     */
    record ToolCall(String id, String name, String arguments) implements Part {
        public ToolCall {
            if (id == null || id.isEmpty()) {
                throw new IllegalArgumentException("tool call id: empty (expected: non-empty)");
            }
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("tool call name: empty (expected: non-empty)");
            }
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    /** The client's answer to a tool call; content holds text and image parts only. */
    record ToolResult(String callId, List<Part> content, boolean isError) implements Part {
        public ToolResult {
            if (callId == null || callId.isEmpty()) {
                throw new IllegalArgumentException("tool result id: empty (expected: non-empty)");
            }
            content = List.copyOf(content);
            for (Part p : content) {
                if (!(p instanceof Text) && !(p instanceof Image)) {
                    throw new IllegalArgumentException("tool result content: " + p.getClass().getSimpleName() + " (expected: text or image)");
                }
            }
        }
    }

    /**
     * Model reasoning.
     *
     * @param signature the provider's signature, the proxy's marker for synthesized blocks, or null
     */
    record Thinking(String text, String signature) implements Part {
        public Thinking {
            Objects.requireNonNull(text, "text");
        }
    }
}
