package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.transcode.Mappings.cli;
import static shaper.transcode.Mappings.request;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.StreamConversion;
import shaper.transcode.pipeline.Transcoder;

/** Chat SSE to the Anthropic event lifecycle, whatever the chunking. */
class ChatStreamTest {
    static final String REQ = request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"stream\":true");
    private static final int[] CHUNKINGS = {0, 1, 7, -1, -2, -3};

    static String chunk(String choiceDelta, String finish) {
        return "data: {\"id\":\"chatcmpl-s\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":" + choiceDelta
                + ",\"finish_reason\":" + finish + "}]}\n\n";
    }

    static final String USAGE = "data: {\"id\":\"chatcmpl-s\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":4,"
            + "\"total_tokens\":24,\"prompt_tokens_details\":{\"cached_tokens\":5}}}\n\n";
    static final String DONE = "data: [DONE]\n\n";

    @Test
    void textStreamHasTheExactLifecycleAtAnyChunking() throws Exception {
        String sse = ": keepalive\n\n" + chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null") + chunk("{\"content\":\"Hel\"}", "null")
                + chunk("{\"content\":\"lo\"}", "null") + chunk("{}", "\"stop\"") + USAGE + DONE;
        for (int c : CHUNKINGS) {
            Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, c);
            Lifecycle.assertValid(run);
            assertEquals(List.of("message_start", "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
                    "message_delta", "message_stop"), run.events().names(), "chunking " + c);
            JsonNode delta = run.events().json(5);
            assertEquals("end_turn", delta.get("delta").get("stop_reason").asText());
            assertEquals(15, delta.get("usage").get("input_tokens").asInt());
            assertEquals(5, delta.get("usage").get("cache_read_input_tokens").asInt());
            assertEquals(4, delta.get("usage").get("output_tokens").asInt());
            assertEquals("claude-x", run.events().json(0).get("message").get("model").asText());
        }
    }

    @Test
    void toolArgumentsStreamInOrderHoweverSplit() throws Exception {
        String sse = chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"Bash\",\"arguments\":\"\"}}]}", "null")
                + chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"comm\"}}]}", "null")
                + chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"and\\\":\\\"ls\\\"}\"}}]}", "null")
                + chunk("{}", "\"tool_calls\"") + DONE;
        for (int c : CHUNKINGS) {
            Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, c);
            Lifecycle.assertValid(run);
            JsonNode start = run.events().json(1);
            assertEquals("tool_use", start.get("content_block").get("type").asText());
            assertEquals("call_a", start.get("content_block").get("id").asText());
            assertEquals("{\"command\":\"ls\"}", run.toolArguments(0));
            assertEquals("tool_use", run.events().json(run.events().events.size() - 2).get("delta").get("stop_reason").asText());
        }
    }

    @Test
    void interleavedToolCallsReachTheClientWholeAndInOrder() throws Exception {
        String sse = chunk("{\"content\":\"Let me run two.\"}", "null")
                + chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_0\",\"function\":{\"name\":\"A\",\"arguments\":\"{\\\"x\\\":\"}},"
                        + "{\"index\":1,\"id\":\"call_1\",\"function\":{\"name\":\"B\",\"arguments\":\"{\\\"y\\\"\"}}]}", "null")
                + chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\":2}\"}}]}", "null")
                + chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]}", "null")
                + chunk("{}", "\"tool_calls\"") + DONE;
        for (int c : CHUNKINGS) {
            Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, c);
            Lifecycle.assertValid(run);
            assertEquals("{\"x\":1}", run.toolArguments(1));
            assertEquals("{\"y\":2}", run.toolArguments(2));
        }
    }

    @Test
    void reasoningContentBecomesAThinkingBlockSignedWithTheMarker() throws Exception {
        String sse = chunk("{\"reasoning_content\":\"hmm\"}", "null") + chunk("{\"reasoning_content\":null,\"content\":\"42\"}", "null")
                + chunk("{}", "\"stop\"") + DONE;
        Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, 0);
        Lifecycle.assertValid(run);
        assertEquals("thinking", run.events().json(1).get("content_block").get("type").asText());
        assertEquals("hmm", run.events().json(2).get("delta").get("thinking").asText());
        assertEquals("shaper-synth-thinking-1", run.events().json(3).get("delta").get("signature").asText());
        assertEquals("text", run.events().json(5).get("content_block").get("type").asText());
    }

    @Test
    void missingDoneAfterAFinishReasonIsToleratedAsANote() throws Exception {
        String sse = chunk("{\"content\":\"hi\"}", "null") + chunk("{}", "\"stop\"") + USAGE;
        Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, 0);
        Lifecycle.assertValid(run);
        assertTrue(run.prepared().report().has(LossKey.MISSING_STREAM_SENTINEL));
    }

    @Test
    void aStreamCutBeforeAnyFinishReasonEndsInOneErrorEventAndNeverMessageStop() throws Exception {
        for (String sse : new String[] {chunk("{\"content\":\"hi\"}", "null"), chunk("{\"content\":\"hi\"}", "null") + DONE}) {
            Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, 0);
            Lifecycle.assertValid(run);
            assertInstanceOf(TranscodeException.UpstreamWire.class, run.failure());
            assertEquals("error", run.last().get("type").asText());
            assertFalse(run.events().names().contains("message_stop"));
        }
    }

    @Test
    void aRepeatedTerminalChunkCountsOnce() throws Exception {
        String sse = chunk("{\"content\":\"hi\"}", "null") + chunk("{}", "\"stop\"") + chunk("{}", "\"stop\"").replace("]}", "],"
                + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}") + DONE;
        Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, -4);
        Lifecycle.assertValid(run);
        assertEquals(1, run.events().names().stream().filter("message_delta"::equals).count());
        assertEquals(3, run.events().json(run.events().events.size() - 2).get("usage").get("input_tokens").asInt());
    }

    @Test
    void corruptFramesAndUpstreamErrorFramesAreUpstreamFailures() throws Exception {
        for (String bad : new String[] {"data: {not json\n\n", "data: {\"error\":{\"message\":\"overloaded\"}}\n\n",
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}", "null")}) {
            Lifecycle.Run run = Lifecycle.convert(cli(), REQ, chunk("{\"content\":\"a\"}", "null") + bad, 0);
            Lifecycle.assertValid(run);
            assertTrue(run.failure().upstreamFailure(), bad);
        }
    }

    @Test
    void invalidStreamedToolArgumentsAreALocalFailure() throws Exception {
        String sse = chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"[1,2]\"}}]}", "null")
                + chunk("{}", "\"tool_calls\"") + DONE;
        Lifecycle.Run run = Lifecycle.convert(cli(), REQ, sse, 0);
        Lifecycle.assertValid(run);
        assertInstanceOf(TranscodeException.Unrepresentable.class, run.failure());
    }

    @Test
    void memoryPerStreamIsBounded() throws Exception {
        TranscodeMapping base = cli();
        TranscodeMapping small = new TranscodeMapping(base.route(), base.capabilities(), base.policy(), base.allowedQuery(), base.models(),
                new TranscodeLimits(1 << 20, 1 << 20, 1 << 20, 4096, 4096, TranscodeLimits.defaults().generatedFrameBytes()));
        // one endless line: the frame bound cuts it off
        Lifecycle.Run line = Lifecycle.convert(small, REQ, chunk("{\"content\":\"a\"}", "null") + "data: " + "x".repeat(10_000), 512);
        Lifecycle.assertValid(line);
        assertTrue(line.failure().getMessage().contains("SSE frame exceeds"), line.failure().getMessage());
        // a held tool call growing without bound: the per-part bound cuts it off
        StringBuilder sse = new StringBuilder(chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"A\",\"arguments\":\"{\"}},"
                + "{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"B\",\"arguments\":\"{\"}}]}", "null"));
        for (int i = 0; i < 20; i++) {
            sse.append(chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"" + "y".repeat(500) + "\"}}]}", "null"));
        }
        Lifecycle.Run held = Lifecycle.convert(small, REQ, sse.toString(), 0);
        Lifecycle.assertValid(held);
        assertTrue(held.failure().getMessage().contains("held state"), held.failure().getMessage());
    }

    @Test
    void eachUpstreamReadIsFlushedAsItArrives() {
        Prepared p = Mappings.prepare(cli(), REQ);
        Mappings.Recorder rec = new Mappings.Recorder();
        StreamConversion c = Transcoder.of(cli()).stream(rec, p);
        byte[] first = chunk("{\"content\":\"a\"}", "null").getBytes();
        c.feed(first, 0, first.length);
        assertEquals(3, rec.events.size(), "message_start, block start and the first delta go out at once");
        assertEquals(1, rec.flushes);
        byte[] second = chunk("{\"content\":\"b\"}", "null").getBytes();
        c.feed(second, 0, second.length);
        assertEquals(4, rec.events.size());
        assertEquals(2, rec.flushes);
    }
}
