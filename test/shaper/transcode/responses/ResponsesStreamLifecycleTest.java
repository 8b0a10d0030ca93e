package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.transcode.responses.ResponsesFixtures.bytes;

import java.util.EnumSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ChatCapability;
import shaper.transcode.LossKey;
import shaper.transcode.LossPolicy;
import shaper.transcode.TranscodeException;
import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.StreamConversion;
import shaper.transcode.pipeline.Transcoder;

/** Chat SSE converted into the Responses event lifecycle, and chat JSON into the Responses object. */
class ResponsesStreamLifecycleTest {
    private static final Transcoder T = Transcoder.of(ResponsesFixtures.responsesChat());
    private static final String TOOLS = "[{\"type\":\"function\",\"name\":\"shell\",\"parameters\":{\"type\":\"object\"}},"
            + "{\"type\":\"namespace\",\"name\":\"mcp__docs\",\"tools\":[{\"type\":\"function\",\"name\":\"read_page\",\"parameters\":{\"type\":\"object\"}}]}]";

    private static Prepared prepare(boolean stream) {
        return T.prepare(bytes("{\"model\":\"client-model\",\"stream\":" + stream + ",\"input\":\"hi\",\"tools\":" + TOOLS + "}"), null);
    }

    private static String chunk(String delta, String finish) {
        return "data: {\"id\":\"chatcmpl-7\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + (finish == null ? "null" : "\"" + finish + "\"") + "}]}\n\n";
    }

    private static RecordingSink run(String sse, boolean end) {
        RecordingSink sink = new RecordingSink();
        StreamConversion c = T.stream(sink, prepare(true));
        byte[] b = bytes(sse);
        c.feed(b, 0, b.length);
        if (end) {
            c.end();
        }
        return sink;
    }

    @Test
    void textStreamFollowsTheLifecycle() {
        RecordingSink sink = run(chunk("{\"role\":\"assistant\",\"content\":\"Hel\"}", null) + chunk("{\"content\":\"lo\"}", null)
                + chunk("{}", "stop") + "data: {\"id\":\"chatcmpl-7\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":2,"
                + "\"total_tokens\":12,\"prompt_tokens_details\":{\"cached_tokens\":4}}}\n\ndata: [DONE]\n\n", true);
        sink.assertResponsesLifecycle();
        assertEquals(java.util.List.of("response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
                "response.output_text.delta", "response.output_text.delta", "response.output_text.done", "response.content_part.done",
                "response.output_item.done", "response.completed"), sink.names());
        JsonNode created = sink.events.get(0).json().path("response");
        assertEquals("client-model", created.path("model").asText());
        assertEquals("in_progress", created.path("status").asText());
        assertEquals("resp_chatcmpl-7", created.path("id").asText());
        assertEquals("Hello", sink.named("response.output_text.done").get(0).json().path("text").asText());
        JsonNode done = sink.last().json().path("response");
        assertEquals("completed", done.path("status").asText());
        assertEquals("Hello", done.path("output").get(0).path("content").get(0).path("text").asText());
        assertEquals(10, done.path("usage").path("input_tokens").asInt(), "cached tokens stay inside input_tokens");
        assertEquals(4, done.path("usage").path("input_tokens_details").path("cached_tokens").asInt());
        assertEquals(12, done.path("usage").path("total_tokens").asInt());
    }

    @Test
    void interleavedToolCallsStreamLiveAndMapNamespacesBack() {
        String sse = chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"shell\",\"arguments\":\"{\\\"cmd\\\"\"}}]}", null)
                + chunk("{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"read_page\",\"arguments\":\"{\\\"page\\\":\"}}]}", null)
                + chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\":\\\"ls\\\"}\"}}]}", null)
                + chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"\\\"index\\\"}\"}}]}", null)
                + chunk("{}", "tool_calls") + "data: [DONE]\n\n";
        RecordingSink sink = run(sse, true);
        sink.assertResponsesLifecycle();
        assertEquals(4, sink.named("response.function_call_arguments.delta").size());
        JsonNode output = sink.last().json().path("response").path("output");
        assertEquals("shell", output.get(0).path("name").asText());
        assertEquals("{\"cmd\":\"ls\"}", output.get(0).path("arguments").asText());
        assertFalse(output.get(0).has("namespace"));
        assertEquals("read_page", output.get(1).path("name").asText());
        assertEquals("mcp__docs", output.get(1).path("namespace").asText());
        assertEquals("call_b", output.get(1).path("call_id").asText());
        assertEquals("{\"page\":\"index\"}", output.get(1).path("arguments").asText());
        assertEquals("{\"page\":\"index\"}", sink.named("response.function_call_arguments.done").get(1).json().path("arguments").asText());
    }

    @Test
    void repeatedTerminalChunkTailEndsOnceWithItsUsage() {
        RecordingSink sink = run(ResponsesFixtures.fieldText("repeated_terminal_tail_field.sse"), true);
        sink.assertResponsesLifecycle();
        JsonNode done = sink.last().json().path("response");
        assertEquals("Hello there.", done.path("output").get(0).path("content").get(0).path("text").asText());
        assertEquals(21, done.path("usage").path("input_tokens").asInt());
        assertEquals(4, done.path("usage").path("output_tokens").asInt());
        assertEquals(1, sink.named("response.output_item.done").size());
        assertFalse(done.toString().contains("cost"), "provider extensions never reach the client");
    }

    @Test
    void missingDoneAfterAFinishReasonReleasesTheTerminal() {
        RecordingSink sink = new RecordingSink();
        Prepared p = prepare(true);
        StreamConversion c = T.stream(sink, p);
        byte[] b = bytes(chunk("{\"content\":\"x\"}", null) + chunk("{}", "stop"));
        c.feed(b, 0, b.length);
        assertFalse(sink.names().contains("response.completed"), "the terminal is held for usage until [DONE] or EOF");
        c.end();
        sink.assertResponsesLifecycle();
        assertTrue(p.report().has(LossKey.MISSING_STREAM_SENTINEL));
        assertEquals(JsonNodeNull(), sink.last().json().path("response").path("usage").getNodeType());
    }

    private static com.fasterxml.jackson.databind.node.JsonNodeType JsonNodeNull() {
        return com.fasterxml.jackson.databind.node.JsonNodeType.NULL;
    }

    @Test
    void streamCutBeforeAFinishReasonEndsInOneFailedEvent() {
        RecordingSink sink = new RecordingSink();
        StreamConversion c = T.stream(sink, prepare(true));
        byte[] b = bytes(chunk("{\"content\":\"partial\"}", null));
        c.feed(b, 0, b.length);
        TranscodeException e = assertThrows(TranscodeException.UpstreamWire.class, c::end);
        assertTrue(e.upstreamFailure());
        c.fail("api_error", e.getMessage());
        c.fail("api_error", "a second failure is not written");
        sink.assertResponsesLifecycle();
        JsonNode failed = sink.last().json();
        assertEquals("response.failed", failed.path("type").asText());
        assertEquals("failed", failed.path("response").path("status").asText());
        assertEquals("api_error", failed.path("response").path("error").path("code").asText());
        assertEquals("upstream stream ended before a finish reason", failed.path("response").path("error").path("message").asText());
    }

    @Test
    void upstreamErrorFrameMidStreamIsAnUpstreamFailure() {
        RecordingSink sink = new RecordingSink();
        StreamConversion c = T.stream(sink, prepare(true));
        byte[] b = bytes(chunk("{\"content\":\"x\"}", null) + "data: {\"error\":{\"message\":\"overloaded\"}}\n\n");
        TranscodeException e = assertThrows(TranscodeException.UpstreamWire.class, () -> c.feed(b, 0, b.length));
        c.fail("api_error", e.getMessage());
        sink.assertResponsesLifecycle();
        assertTrue(sink.last().json().path("response").path("error").path("message").asText().contains("overloaded"));
    }

    @Test
    void reasoningBecomesAReasoningItemBeforeTheMessage() {
        RecordingSink sink = run(chunk("{\"reasoning_content\":\"think\"}", null) + chunk("{\"reasoning_content\":\"ing\"}", null)
                + chunk("{\"content\":\"answer\"}", null) + chunk("{}", "stop") + "data: [DONE]\n\n", true);
        sink.assertResponsesLifecycle();
        JsonNode output = sink.last().json().path("response").path("output");
        assertEquals("reasoning", output.get(0).path("type").asText());
        assertEquals("thinking", output.get(0).path("content").get(0).path("text").asText());
        assertEquals("message", output.get(1).path("type").asText());
        assertEquals(2, sink.named("response.reasoning_text.delta").size());
        int reasoningDone = sink.names().indexOf("response.reasoning_text.done");
        assertTrue(reasoningDone < sink.names().indexOf("response.output_text.delta"), "reasoning closes when text starts");
    }

    @Test
    void anEarlyCommittedStreamFailsInTheResponsesDialect() {
        RecordingSink sink = new RecordingSink();
        T.earlyError(sink, "rate_limit_error", "slow down");
        sink.assertResponsesLifecycle();
        assertEquals("response.failed", sink.last().name());
        assertEquals("slow down", sink.last().json().path("response").path("error").path("message").asText());
    }

    @Test
    void replayedSdkParseFieldsAreAccepted() {
        Prepared p = T.prepare(bytes("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"x\"},{\"type\":\"function_call\","
                + "\"call_id\":\"c1\",\"name\":\"shell\",\"arguments\":\"{}\",\"parsed_arguments\":{}},{\"type\":\"function_call_output\","
                + "\"call_id\":\"c1\",\"output\":\"ok\"}]}"), null);
        assertEquals("tool", ResponsesFixtures.json(p.body()).path("messages").get(2).path("role").asText());
    }

    @Test
    void lengthFinishIsAnIncompleteResponse() {
        RecordingSink sink = run(chunk("{\"content\":\"cut\"}", null) + chunk("{}", "length") + "data: [DONE]\n\n", true);
        sink.assertResponsesLifecycle();
        JsonNode r = sink.last().json();
        assertEquals("response.incomplete", r.path("type").asText());
        assertEquals("max_output_tokens", r.path("response").path("incomplete_details").path("reason").asText());
    }

    @Test
    void nonStreamingAnswerIsTheResponsesObject() {
        Prepared p = prepare(false);
        byte[] out = T.answer(bytes("{\"id\":\"chatcmpl-9\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"finish_reason\":\"tool_calls\","
                + "\"message\":{\"role\":\"assistant\",\"content\":\"Reading.\",\"reasoning_content\":\"plan\",\"tool_calls\":[{\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"read_page\",\"arguments\":\"{\\\"page\\\":\\\"a\\\"}\"}}]}}],"
                + "\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3,\"total_tokens\":10,\"completion_tokens_details\":{\"reasoning_tokens\":1}},"
                + "\"prompt_token_ids\":[1,2,3]}"), p);
        JsonNode r = ResponsesFixtures.json(out);
        assertEquals("response", r.path("object").asText());
        assertEquals("resp_chatcmpl-9", r.path("id").asText());
        assertEquals("completed", r.path("status").asText());
        assertEquals("client-model", r.path("model").asText());
        JsonNode output = r.path("output");
        assertEquals("reasoning", output.get(0).path("type").asText());
        assertEquals("Reading.", output.get(1).path("content").get(0).path("text").asText());
        assertEquals("function_call", output.get(2).path("type").asText());
        assertEquals("read_page", output.get(2).path("name").asText());
        assertEquals("mcp__docs", output.get(2).path("namespace").asText());
        assertEquals(7, r.path("usage").path("input_tokens").asInt());
        assertEquals(1, r.path("usage").path("output_tokens_details").path("reasoning_tokens").asInt());
        assertFalse(r.has("input_tokens_details") || r.path("usage").has("input_tokens_details"), "an unknown cache breakdown is left out, not zero");
        assertFalse(r.toString().contains("prompt_token_ids"));
    }

    @Test
    void strictUsagePolicyRejectsUnknownUsageAtTheTerminal() {
        Transcoder strict = Transcoder.of(ResponsesFixtures.responsesChat(EnumSet.noneOf(ChatCapability.class), EnumSet.noneOf(LossKey.class)));
        RecordingSink sink = new RecordingSink();
        StreamConversion c = strict.stream(sink, strict.prepare(bytes("{\"model\":\"m\",\"stream\":true,\"input\":\"x\"}"), null));
        byte[] b = bytes(chunk("{\"content\":\"x\"}", null) + chunk("{}", "stop"));
        c.feed(b, 0, b.length);
        byte[] done = bytes("data: [DONE]\n\n");
        TranscodeException.Unsupported e = assertThrows(TranscodeException.Unsupported.class, () -> c.feed(done, 0, done.length));
        assertEquals(LossKey.USAGE_UNKNOWN, e.key());
        c.fail("invalid_request_error", e.getMessage());
        sink.assertResponsesLifecycle();
        assertEquals(LossPolicy.STRICT.approved().size(), 0);
    }
}
