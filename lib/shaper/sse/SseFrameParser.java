package shaper.sse;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Incremental parser for {@code text/event-stream}: bytes in, complete {@link SseFrame}s out, whatever
 * the chunk boundaries (a split multi-byte character, a {@code \r\n} split between chunks).
 *
 * <p>Field rules follow the HTML Living Standard, "Interpreting an event stream" (§9.2.6): a line ends at
 * {@code \r\n}, {@code \n} or {@code \r}; a leading UTF-8 BOM is dropped; a line starting with {@code :}
 * is a comment; otherwise the field name runs to the first {@code :} and one space after it is removed;
 * {@code data} lines accumulate joined by {@code \n}; {@code id} is ignored when it contains NUL; unknown
 * fields (and {@code retry}) are ignored; a blank line dispatches. Unlike a browser, a block holding only
 * comments is still dispatched, because keepalives matter to the proxy.
 *
 * <p>Memory grows with an unterminated line; callers bound what they feed. Not thread-safe: one parser
 * per stream.
 */
public final class SseFrameParser {
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private boolean lastWasCr;
    private boolean firstLine = true;
    private long consumed;
    private long completedBytes;

    private String event;
    private StringBuilder data;
    private String id;
    private final List<String> comments = new ArrayList<>();
    private boolean frameStarted;

    /** Feeds all of {@code bytes}. */
    public List<SseFrame> feed(byte[] bytes) {
        return feed(bytes, 0, bytes.length);
    }

    /** Feeds {@code len} bytes from {@code off}; returns the frames completed by them, in order. */
    public List<SseFrame> feed(byte[] bytes, int off, int len) {
        List<SseFrame> frames = new ArrayList<>();
        for (int i = off; i < off + len; i++) {
            byte b = bytes[i];
            consumed++;
            if (b == '\n' && lastWasCr) {
                lastWasCr = false;
                continue;
            }
            lastWasCr = b == '\r';
            if (b == '\n' || b == '\r') {
                endLine(frames);
            } else {
                line.write(b);
            }
        }
        return frames;
    }

    /**
     * At end of stream: the frame still open (its blank line never came) is dispatched when it has any
     * content. The standard discards it; the proxy would rather see an error frame cut short by a close.
     */
    public Optional<SseFrame> finish() {
        List<SseFrame> frames = new ArrayList<>();
        if (line.size() > 0) {
            endLine(frames);
        }
        if (frames.isEmpty() && frameStarted) {
            frames.add(dispatch());
        }
        completedBytes = consumed;
        return frames.stream().findFirst();
    }

    /** Bytes consumed through the end of the last dispatched frame's blank line. */
    public long completedBytes() {
        return completedBytes;
    }

    /** Bytes fed so far. */
    public long consumedBytes() {
        return consumed;
    }

    private void endLine(List<SseFrame> frames) {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (firstLine) {
            firstLine = false;
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
        }
        if (text.isEmpty()) {
            if (frameStarted) {
                frames.add(dispatch());
            }
            completedBytes = consumed;
            return;
        }
        frameStarted = true;
        if (text.charAt(0) == ':') {
            comments.add(text.substring(1));
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "event" -> event = value;
            case "data" -> {
                if (data == null) {
                    data = new StringBuilder(value);
                } else {
                    data.append('\n').append(value);
                }
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    id = value;
                }
            }
            default -> {
                // retry and unknown fields carry nothing the proxy acts on
            }
        }
    }

    private SseFrame dispatch() {
        SseFrame frame = new SseFrame(event, data == null ? null : data.toString(), id, comments);
        event = null;
        data = null;
        id = null;
        comments.clear();
        frameStarted = false;
        return frame;
    }
}
