package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.StreamConversion;
import shaper.transcode.pipeline.Transcoder;

/** Runs chat SSE through the production stream conversion and checks the Anthropic event lifecycle. */
final class Lifecycle {
    private Lifecycle() {
    }

    /** The outcome of one converted stream. */
    record Run(Mappings.Recorder events, Prepared prepared, TranscodeException failure) {
        /** Concatenated {@code partial_json} of block {@code index}. */
        String toolArguments(int index) throws Exception {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < events.events.size(); i++) {
                JsonNode j = events.json(i);
                if (j.path("type").asText().equals("content_block_delta") && j.path("index").asInt() == index
                        && j.path("delta").path("type").asText().equals("input_json_delta")) {
                    sb.append(j.path("delta").path("partial_json").asText());
                }
            }
            return sb.toString();
        }

        JsonNode last() throws Exception {
            return events.json(events.events.size() - 1);
        }
    }

    /** Feeds {@code sse} in pieces of {@code chunk} bytes (0 = all at once; negative = random sizes from seed -chunk). */
    static Run convert(TranscodeMapping m, String request, String sse, int chunk) {
        Prepared p = Mappings.prepare(m, request);
        Mappings.Recorder rec = new Mappings.Recorder();
        StreamConversion c = Transcoder.of(m).stream(rec, p);
        byte[] bytes = sse.getBytes(StandardCharsets.UTF_8);
        Random random = chunk < 0 ? new Random(-chunk) : null;
        try {
            int off = 0;
            while (off < bytes.length) {
                int n = chunk == 0 ? bytes.length : random != null ? 1 + random.nextInt(40) : chunk;
                n = Math.min(n, bytes.length - off);
                c.feed(bytes, off, n);
                off += n;
            }
            c.end();
            return new Run(rec, p, null);
        } catch (TranscodeException e) {
            c.fail(Transcoder.of(m).errorType(e.status()), e.getMessage());
            return new Run(rec, p, e);
        }
    }

    /**
     * The exact lifecycle: message_start first; blocks in index order each start, deltas, stop, one at
     * a time; then message_delta and message_stop exactly once; or, on failure, one final error
     * event and no message_stop. Every event name equals its JSON type.
     */
    static void assertValid(Run run) throws Exception {
        List<String[]> ev = run.events().events;
        assertTrue(!ev.isEmpty(), "no events");
        int open = -1;
        int next = 0;
        boolean stopped = false;
        for (int i = 0; i < ev.size(); i++) {
            JsonNode j = run.events().json(i);
            String name = ev.get(i)[0];
            assertEquals(name, j.path("type").asText(), "event: equals the JSON type at " + i);
            if (i == 0 && !name.equals("error")) {
                assertEquals("message_start", name);
                continue;
            }
            if (stopped) {
                fail("event after message_stop: " + name);
            }
            switch (name) {
                case "content_block_start" -> {
                    assertEquals(-1, open, "a block opened while another is open");
                    assertEquals(next, j.path("index").asInt(), "block indexes in order");
                    open = next++;
                }
                case "content_block_delta" -> assertEquals(open, j.path("index").asInt(), "delta for the open block");
                case "content_block_stop" -> {
                    assertEquals(open, j.path("index").asInt());
                    open = -1;
                }
                case "message_delta" -> {
                    assertEquals(-1, open, "message_delta with a block open");
                    assertTrue(j.path("delta").has("stop_reason"));
                    assertTrue(j.path("usage").has("output_tokens"));
                }
                case "message_stop" -> {
                    assertEquals("message_delta", ev.get(i - 1)[0]);
                    stopped = true;
                }
                case "error" -> {
                    assertEquals(ev.size() - 1, i, "error is the last event");
                    assertTrue(run.failure() != null, "an error event only on failure");
                    return;
                }
                default -> fail("unexpected event " + name);
            }
        }
        assertTrue(stopped, "the stream ends with message_stop");
        assertTrue(run.failure() == null);
    }
}
