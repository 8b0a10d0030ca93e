package shaper.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One assistant turn in the Anthropic Messages shape: the non-streaming document, or the streaming
 * event sequence
 * <pre>
 * message_start, content_block_start, ping, content_block_delta (text_delta) × chunks,
 * content_block_stop, message_delta (stop_reason, usage), message_stop
 * </pre>
 * split into {@link #opening}, {@link #delta} and {@link #closing} so a slow stream can wait between deltas.
 * Output tokens are counted as one per text chunk.
 */
final class MessagesReply {
    /** One SSE event: its name and compact JSON data. */
    record Frame(String event, String data) {
    }

    private final ObjectMapper mapper;
    private final String id;
    private final String model;
    private final int inputTokens;
    private final List<String> chunks;

    MessagesReply(ObjectMapper mapper, String model, int inputTokens, List<String> chunks) {
        if (chunks.isEmpty()) {
            throw new IllegalArgumentException("chunks: [] (expected: at least one)");
        }
        this.mapper = mapper;
        this.id = newId("msg_");
        this.model = model;
        this.inputTokens = inputTokens;
        this.chunks = List.copyOf(chunks);
    }

    /** {@code text} cut at word boundaries (each chunk keeps its leading space). */
    static List<String> chunks(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= text.length(); i++) {
            if (i == text.length() || (text.charAt(i) == ' ' && text.charAt(i - 1) != ' ')) {
                out.add(text.substring(start, i));
                start = i;
            }
        }
        return out;
    }

    /** Exactly {@code count} chunks, cycling through the words of {@code text}. */
    static List<String> chunks(String text, int count) {
        List<String> words = chunks(text);
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String w = words.get(i % words.size()).strip();
            out.add(i == 0 ? w : " " + w);
        }
        return out;
    }

    static String newId(String prefix) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return prefix + "probe" + Long.toHexString(r.nextLong() | Long.MIN_VALUE) + Long.toHexString(r.nextLong() | Long.MIN_VALUE);
    }

    List<String> chunks() {
        return chunks;
    }

    String text() {
        return String.join("", chunks);
    }

    /** The non-streaming response body. */
    String document() {
        ObjectNode msg = envelope();
        msg.putArray("content").addObject().put("type", "text").put("text", text());
        msg.put("stop_reason", "end_turn");
        msg.putNull("stop_sequence");
        msg.putObject("usage").put("input_tokens", inputTokens).put("output_tokens", chunks.size());
        return write(msg);
    }

    List<Frame> opening() {
        ObjectNode msg = envelope();
        msg.putArray("content");
        msg.putNull("stop_reason");
        msg.putNull("stop_sequence");
        msg.putObject("usage").put("input_tokens", inputTokens).put("output_tokens", 1);
        ObjectNode start = mapper.createObjectNode().put("type", "message_start");
        start.set("message", msg);
        ObjectNode block = mapper.createObjectNode().put("type", "content_block_start").put("index", 0);
        block.putObject("content_block").put("type", "text").put("text", "");
        return List.of(frame("message_start", start), frame("content_block_start", block),
                frame("ping", mapper.createObjectNode().put("type", "ping")));
    }

    Frame delta(int i) {
        ObjectNode d = mapper.createObjectNode().put("type", "content_block_delta").put("index", 0);
        d.putObject("delta").put("type", "text_delta").put("text", chunks.get(i));
        return frame("content_block_delta", d);
    }

    List<Frame> closing() {
        ObjectNode stop = mapper.createObjectNode().put("type", "content_block_stop").put("index", 0);
        ObjectNode delta = mapper.createObjectNode().put("type", "message_delta");
        delta.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
        delta.putObject("usage").put("output_tokens", chunks.size());
        return List.of(frame("content_block_stop", stop), frame("message_delta", delta),
                frame("message_stop", mapper.createObjectNode().put("type", "message_stop")));
    }

    private ObjectNode envelope() {
        return mapper.createObjectNode().put("id", id).put("type", "message").put("role", "assistant").put("model", model);
    }

    private Frame frame(String event, ObjectNode data) {
        return new Frame(event, write(data));
    }

    private String write(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
