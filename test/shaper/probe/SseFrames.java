package shaper.probe;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** Splits an SSE body into frames, strictly: every frame must be exactly one event line and one data line. */
record SseFrames(List<Frame> frames) {
    record Frame(String event, JsonNode data) {
    }

    static SseFrames parse(String body) {
        if (!body.endsWith("\n\n")) {
            throw new AssertionError("SSE body does not end with a blank line: " + body);
        }
        List<Frame> out = new ArrayList<>();
        for (String block : body.split("\n\n")) {
            String[] lines = block.split("\n");
            if (lines.length != 2 || !lines[0].startsWith("event: ") || !lines[1].startsWith("data: ")) {
                throw new AssertionError("malformed SSE frame: " + block);
            }
            JsonNode data = RunningProbe.json(lines[1].substring("data: ".length()));
            String event = lines[0].substring("event: ".length());
            if (!event.equals(data.path("type").asText())) {
                throw new AssertionError("event " + event + " carries data of type " + data.path("type"));
            }
            out.add(new Frame(event, data));
        }
        return new SseFrames(List.copyOf(out));
    }

    List<String> events() {
        return frames.stream().map(Frame::event).toList();
    }

    List<Frame> named(String event) {
        return frames.stream().filter(f -> f.event.equals(event)).toList();
    }

    /** The text the {@code text_delta}s add up to. */
    String text() {
        StringBuilder sb = new StringBuilder();
        for (Frame f : named("content_block_delta")) {
            sb.append(f.data.path("delta").path("text").asText());
        }
        return sb.toString();
    }
}
