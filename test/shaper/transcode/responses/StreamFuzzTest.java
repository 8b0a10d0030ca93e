package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import shaper.ProjectRoot;
import shaper.transcode.ChatCapability;
import shaper.transcode.Direction;
import shaper.transcode.LossKey;
import shaper.transcode.LossPolicy;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.TranscodeRoute;
import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.StreamConversion;
import shaper.transcode.pipeline.Transcoder;

/**
 * Seeded property test of every stream conversion (each direction's upstream decoder and client
 * lifecycle state machine): field-corpus and generated streams, truncated, re-chunked at random
 * sizes, with frames dropped, duplicated, corrupted or replaced by junk, fed the way the request
 * path feeds them. Properties: nothing but a {@link TranscodeException} escapes; every written event
 * is one complete JSON frame whose name equals its type; once anything was written the stream ends
 * in exactly one terminal (success or error), last; Responses sequence numbers count up by one;
 * held state stays within the (deliberately small) part bound. Bounded by a case count and a time
 * budget; the seed is printed on failure so a case can be replayed.
 */
class StreamFuzzTest {
    private static final int CASES = 1000;
    private static final long BUDGET_NANOS = 6_000_000_000L;
    private static final Set<String> MESSAGES_TERMINALS = Set.of("message_stop", "error");

    private static TranscodeMapping mapping(Direction d) {
        TranscodeRoute route = switch (d) {
            case RESPONSES_CHAT -> TranscodeRoute.RESPONSES_CHAT;
            case MESSAGES_CHAT -> TranscodeRoute.MESSAGES_CHAT;
            case MESSAGES_RESPONSES -> TranscodeRoute.MESSAGES_RESPONSES;
        };
        // small part and frame bounds so the memory properties are reached
        TranscodeLimits small = new TranscodeLimits(1 << 20, 1 << 20, 1 << 16, 8 * 1024, 4 * 1024,
                TranscodeLimits.defaults().generatedFrameBytes());
        return new TranscodeMapping(route, ChatCapability.cliDefaults(), new LossPolicy(ResponsesFixtures.everything()), Set.of(), Map.of(),
                small);
    }

    private static String request(Direction d) {
        String tools = "\"tools\":[" + (d == Direction.RESPONSES_CHAT ? "{\"type\":\"function\",\"name\":\"Bash\",\"parameters\":{\"type\":\"object\"}}"
                : "{\"name\":\"Bash\",\"input_schema\":{\"type\":\"object\"}}") + "]";
        return d == Direction.RESPONSES_CHAT ? "{\"model\":\"m\",\"stream\":true,\"input\":\"x\"," + tools + "}"
                : "{\"model\":\"m\",\"max_tokens\":9,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]," + tools + "}";
    }

    private static List<String> corpus(Direction d) throws Exception {
        List<String> streams = new ArrayList<>();
        Path root = ProjectRoot.find().resolve("test/shaper/transcode");
        if (d.upstream() == shaper.transcode.Protocol.CHAT_COMPLETIONS) {
            for (String f : List.of("field/qwen_stream_field.sse", "field/qwen_reasoning_stream_field.sse", "field/litellm_billing_tools_stream_field.sse",
                    "responses/field/repeated_terminal_tail_field.sse")) {
                streams.add(Files.readString(root.resolve(f), StandardCharsets.UTF_8));
            }
            streams.add(chatTools());
        } else {
            String dataOnly = Files.readString(root.resolve("responses/field/data_only_responses_stream_field.sse"), StandardCharsets.UTF_8);
            streams.add(dataOnly);
            streams.add(named(dataOnly));
        }
        return streams;
    }

    /** Two tool calls interleaved, text and reasoning, a finish, usage and [DONE]. */
    private static String chatTools() {
        StringBuilder sb = new StringBuilder();
        String[] deltas = {"{\"reasoning_content\":\"hm\"}", "{\"content\":\"ok \"}",
                "{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"Bash\",\"arguments\":\"{\\\"c\\\"\"}}]}",
                "{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"Bash\",\"arguments\":\"{\"}}]}",
                "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\":1}\"}}]}",
                "{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"}\"}}]}"};
        for (String d : deltas) {
            sb.append("data: {\"id\":\"chatcmpl-f\",\"choices\":[{\"index\":0,\"delta\":").append(d).append(",\"finish_reason\":null}]}\n\n");
        }
        sb.append("data: {\"id\":\"chatcmpl-f\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n");
        sb.append("data: {\"id\":\"chatcmpl-f\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":4,\"total_tokens\":9}}\n\n");
        return sb.append("data: [DONE]\n\n").toString();
    }

    /** The same frames with {@code event:} lines naming their types. */
    private static String named(String dataOnly) {
        StringBuilder sb = new StringBuilder();
        for (String frame : dataOnly.split("\n\n")) {
            int t = frame.indexOf("\"type\":\"");
            if (frame.startsWith("data: {") && t > 0) {
                String type = frame.substring(t + 8, frame.indexOf('"', t + 8));
                sb.append("event: ").append(type).append('\n');
            }
            sb.append(frame).append("\n\n");
        }
        return sb.toString();
    }

    private static final String[] JUNK = {"data: {\n\n", "data: [1,2]\n\n", "data: {\"type\":7}\n\n", "data: null\n\n", "event: x\ndata: {}\n\n",
        ": comment\n\n", "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":3}]}}]}\n\n",
        "data: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":9,\"delta\":\"x\"}\n\n",
        "data: {\"type\":\"response.output_text.delta\",\"output_index\":-1,\"delta\":\"x\"}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + "x".repeat(5000) + "\"}}]}\n\n", "\u00e9\u00ff\r\r\n", "data: [DONE]\n\n"};

    /** One mutation of a stream: frames dropped, duplicated, corrupted or junk inserted, then maybe truncated. */
    private static byte[] mutate(String stream, SplittableRandom rnd) {
        List<String> frames = new ArrayList<>(List.of(stream.split("(?<=\n\n)")));
        int ops = rnd.nextInt(4);
        for (int i = 0; i < ops && !frames.isEmpty(); i++) {
            int at = rnd.nextInt(frames.size());
            switch (rnd.nextInt(5)) {
                case 0 -> frames.remove(at);
                case 1 -> frames.add(at, frames.get(at));
                case 2 -> {
                    String f = frames.get(at);
                    int cut = rnd.nextInt(f.length());
                    frames.set(at, f.substring(0, cut) + (char) rnd.nextInt(32, 127) + f.substring(Math.min(f.length(), cut + 1)));
                }
                case 3 -> frames.add(at, JUNK[rnd.nextInt(JUNK.length)]);
                default -> {
                    // unchanged
                }
            }
        }
        byte[] b = String.join("", frames).getBytes(StandardCharsets.UTF_8);
        if (rnd.nextInt(3) == 0) {
            return java.util.Arrays.copyOf(b, rnd.nextInt(b.length + 1));
        }
        return b;
    }

    @ParameterizedTest
    @EnumSource(Direction.class)
    void everyStreamEndsInExactlyOneTerminalAndNothingElseEscapes(Direction d) throws Exception {
        long seed = 0x5EED_0000L + d.ordinal();
        SplittableRandom rnd = new SplittableRandom(seed);
        Transcoder t = Transcoder.of(mapping(d));
        List<String> corpus = corpus(d);
        long deadline = System.nanoTime() + BUDGET_NANOS;
        int cases = 0;
        int completed = 0;
        for (; cases < CASES && System.nanoTime() < deadline; cases++) {
            byte[] input = cases < corpus.size() ? corpus.get(cases).getBytes(StandardCharsets.UTF_8) : mutate(corpus.get(rnd.nextInt(corpus.size())), rnd);
            RecordingSink sink = new RecordingSink();
            try {
                completed += run(t, input, rnd, sink) ? 1 : 0;
                check(d, sink);
            } catch (AssertionError | RuntimeException e) {
                fail(d + " case " + cases + " (seed " + seed + "): " + e + "\ninput:\n" + new String(input, StandardCharsets.UTF_8), e);
            }
        }
        System.out.println("stream fuzz " + d + ": " + cases + " cases, " + completed + " clean, " + (cases - completed) + " ended in an error event");
        assertTrue(cases >= 200, "too few cases ran in the budget: " + cases);
        assertTrue(cases - completed >= cases / 20, "the mutations reach the failure paths: " + (cases - completed) + " of " + cases);
        assertTrue(completed >= corpus.size(), "the unmutated corpus streams complete: " + completed);
    }

    /** Feeds like the request path: chunks, end, and one error event on a conversion failure. @return whether it ended cleanly */
    private static boolean run(Transcoder t, byte[] input, SplittableRandom rnd, RecordingSink sink) {
        Prepared p = t.prepare(ResponsesFixtures.bytes(request(t.mapping().route().direction())), null);
        StreamConversion c = t.stream(sink, p);
        try {
            for (int off = 0; off < input.length; ) {
                int n = Math.min(input.length - off, 1 + rnd.nextInt(64));
                c.feed(input, off, n);
                off += n;
            }
            c.end();
            return true;
        } catch (TranscodeException e) {
            c.fail(t.errorType(e.status()), e.getMessage());
            return false;
        }
    }

    private static void check(Direction d, RecordingSink sink) {
        List<RecordingSink.Event> events = sink.events;
        assertTrue(!events.isEmpty(), "a failed or finished stream writes its terminal");
        if (d.client() == shaper.transcode.Protocol.RESPONSES) {
            sink.assertResponsesLifecycle();
            return;
        }
        int terminals = 0;
        for (RecordingSink.Event e : events) {
            assertEquals(e.name(), e.json().path("type").asText(), "event: equals type");
            terminals += MESSAGES_TERMINALS.contains(e.name()) ? 1 : 0;
        }
        assertEquals(1, terminals, "exactly one terminal: " + sink.names());
        assertTrue(MESSAGES_TERMINALS.contains(sink.last().name()), "the terminal is last: " + sink.names());
        if (sink.last().name().equals("message_stop")) {
            assertEquals("message_start", events.get(0).name());
        }
    }

    static {
        // the key set the fuzz mapping approves must stay a policy set
        assertTrue(ResponsesFixtures.everything().stream().allMatch(k -> k.kind() == LossKey.Kind.POLICY));
    }
}
