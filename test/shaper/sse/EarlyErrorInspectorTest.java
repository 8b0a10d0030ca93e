package shaper.sse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class EarlyErrorInspectorTest {
    private static final String MESSAGE_START = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":"
            + "{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\","
            + "\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n";
    private static final String PING = "event: ping\ndata: {\"type\": \"ping\"}\n\n";
    private static final String BLOCK_START = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
            + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n";
    private static final String OVERLOADED = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
            + "\"message\":\"Overloaded\"}}\n\n";
    private static final String RESPONSE_CREATED = "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,"
            + "\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"in_progress\"}}\n\n";
    private static final String RESPONSE_IN_PROGRESS = "event: response.in_progress\ndata: {\"type\":\"response.in_progress\","
            + "\"sequence_number\":1,\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\"}}\n\n";
    private static final String RESPONSE_FAILED = "event: response.failed\ndata: {\"type\":\"response.failed\",\"sequence_number\":2,"
            + "\"response\":{\"id\":\"resp_1\",\"status\":\"failed\",\"error\":{\"code\":\"rate_limit_exceeded\","
            + "\"message\":\"Rate limit reached for gpt-5 in organization org-abc on tokens per min (TPM).\"}}}\n\n";
    private static final String TEXT_DELTA = "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
            + "\"delta\":\"Hi\"}\n\n";

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static InspectorVerdict inspectWhole(String stream) {
        return new EarlyErrorInspector().feed(bytes(stream));
    }

    @Test
    void anthropicOutputAfterPreambleIsForwardedWithEveryBufferedByte() {
        String stream = MESSAGE_START + PING + ": comment\n\n" + BLOCK_START;
        InspectorVerdict.Forward f = assertInstanceOf(InspectorVerdict.Forward.class, inspectWhole(stream));
        assertEquals(InspectorVerdict.Forward.Reason.OUTPUT_STARTED, f.reason());
        assertArrayEquals(bytes(stream), f.buffered());
    }

    @Test
    void anthropicEarlyOverloadedErrorIsRetried() {
        InspectorVerdict.Retry r = assertInstanceOf(InspectorVerdict.Retry.class, inspectWhole(MESSAGE_START + PING + OVERLOADED));
        assertEquals("error", r.frameType());
        assertEquals("Overloaded", r.message());
        assertEquals("overloaded_error", r.errorType());
        assertArrayEquals(bytes(MESSAGE_START + PING + OVERLOADED), r.buffered());
    }

    @Test
    void responsesEarlyFailedWithRateLimitIsRetried() {
        InspectorVerdict.Retry r = assertInstanceOf(InspectorVerdict.Retry.class,
                inspectWhole(RESPONSE_CREATED + RESPONSE_IN_PROGRESS + RESPONSE_FAILED));
        assertEquals("response.failed", r.frameType());
        assertEquals("rate_limit_exceeded", r.errorType());
        assertEquals("Rate limit reached for gpt-5 in organization org-abc on tokens per min (TPM).", r.message());
    }

    @Test
    void responsesErrorEventWithTopLevelCodeIsRetried() {
        String error = "event: error\ndata: {\"type\":\"error\",\"code\":\"server_is_overloaded\",\"message\":"
                + "\"Our servers are currently overloaded. Please try again later.\",\"param\":null,\"sequence_number\":1}\n\n";
        InspectorVerdict.Retry r = assertInstanceOf(InspectorVerdict.Retry.class, inspectWhole(RESPONSE_CREATED + error));
        assertEquals("server_is_overloaded", r.errorType());
        assertEquals("Our servers are currently overloaded. Please try again later.", r.message());
    }

    @Test
    void dataOnlyErrorObjectFromABridgeIsRetried() {
        String error = "data: {\"error\":{\"message\":\"Upstream service unavailable\",\"type\":\"upstream_error\"}}\n\n";
        InspectorVerdict.Retry r = assertInstanceOf(InspectorVerdict.Retry.class, inspectWhole(": PROCESSING\n\n" + error));
        assertEquals("Upstream service unavailable", r.message());
        assertEquals("upstream_error", r.errorType());
    }

    @Test
    void dataOnlyPreambleTypesAreRecognizedWithoutEventLines() {
        String stream = "data: {\"type\":\"response.created\"}\n\ndata: {\"type\":\"error\",\"message\":\"experiencing high demand\"}\n\n";
        InspectorVerdict.Retry r = assertInstanceOf(InspectorVerdict.Retry.class, inspectWhole(stream));
        assertEquals("experiencing high demand", r.message());
        assertNull(r.errorType());
    }

    @Test
    void unrecognizedEarlyErrorIsPassedThrough() {
        String apiError = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal server error\"}}\n\n";
        InspectorVerdict.Forward f = assertInstanceOf(InspectorVerdict.Forward.class, inspectWhole(MESSAGE_START + apiError));
        assertEquals(InspectorVerdict.Forward.Reason.UNRECOGNIZED_ERROR, f.reason());
        assertArrayEquals(bytes(MESSAGE_START + apiError), f.buffered());
    }

    @Test
    void invalidRequestWinsOverRateLimitWordingInAStream() {
        String error = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                + "\"message\":\"rate limit tier does not allow this model\"}}\n\n";
        InspectorVerdict.Forward f = assertInstanceOf(InspectorVerdict.Forward.class, inspectWhole(error));
        assertEquals(InspectorVerdict.Forward.Reason.UNRECOGNIZED_ERROR, f.reason());
    }

    @Test
    void errorAfterOutputInTheSameChunkIsNotRetried() {
        String stream = MESSAGE_START + BLOCK_START + OVERLOADED;
        InspectorVerdict.Forward f = assertInstanceOf(InspectorVerdict.Forward.class, inspectWhole(stream));
        assertEquals(InspectorVerdict.Forward.Reason.OUTPUT_STARTED, f.reason());
        assertArrayEquals(bytes(stream), f.buffered());
        InspectorVerdict.Forward responses = assertInstanceOf(InspectorVerdict.Forward.class,
                inspectWhole(RESPONSE_CREATED + TEXT_DELTA + RESPONSE_FAILED));
        assertEquals(InspectorVerdict.Forward.Reason.OUTPUT_STARTED, responses.reason());
    }

    @Test
    void chatCompletionsFirstChunkAndUnfamiliarEventsStopInspection() {
        String chunk = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
        assertEquals(InspectorVerdict.Forward.Reason.OUTPUT_STARTED,
                assertInstanceOf(InspectorVerdict.Forward.class, inspectWhole(chunk)).reason());
        assertEquals(InspectorVerdict.Forward.Reason.OUTPUT_STARTED,
                assertInstanceOf(InspectorVerdict.Forward.class, inspectWhole("event: vendor_status\ndata: overloaded\n\n")).reason());
        assertEquals(InspectorVerdict.Forward.Reason.OUTPUT_STARTED,
                assertInstanceOf(InspectorVerdict.Forward.class, inspectWhole("data: [DONE]\n\n")).reason());
    }

    @Test
    void verdictWaitsForTheCompleteFrameAcrossChunks() {
        byte[] all = bytes(MESSAGE_START + PING + OVERLOADED.replace("\n", "\r\n"));
        EarlyErrorInspector inspector = new EarlyErrorInspector();
        // The frame is complete at the blank line's \r; its \n is the upstream's next byte, forwarded or discarded later.
        int blankLineCr = all.length - 2;
        for (int i = 0; i < blankLineCr; i++) {
            assertInstanceOf(InspectorVerdict.Undecided.class, inspector.feed(all, i, 1), "byte " + i);
        }
        InspectorVerdict.Retry r = assertInstanceOf(InspectorVerdict.Retry.class, inspector.feed(all, blankLineCr, 1));
        assertArrayEquals(java.util.Arrays.copyOf(all, blankLineCr + 1), r.buffered());
    }

    @Test
    void preambleBeyondTheLimitIsForwardedUnchanged() {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        EarlyErrorInspector inspector = new EarlyErrorInspector();
        InspectorVerdict verdict = new InspectorVerdict.Undecided();
        while (verdict instanceof InspectorVerdict.Undecided) {
            byte[] ping = bytes(PING);
            stream.writeBytes(ping);
            verdict = inspector.feed(ping);
        }
        InspectorVerdict.Forward f = assertInstanceOf(InspectorVerdict.Forward.class, verdict);
        assertEquals(InspectorVerdict.Forward.Reason.LIMIT_REACHED, f.reason());
        assertArrayEquals(stream.toByteArray(), f.buffered());
        assertEquals(true, f.buffered().length >= EarlyErrorInspector.DEFAULT_LIMIT);
        assertEquals(true, f.buffered().length < EarlyErrorInspector.DEFAULT_LIMIT + PING.length());
    }

    @Test
    void errorFrameCompletingPastTheLimitIsNotJudged() {
        int limit = MESSAGE_START.length() + 10;
        InspectorVerdict.Forward f = assertInstanceOf(InspectorVerdict.Forward.class,
                new EarlyErrorInspector(limit).feed(bytes(MESSAGE_START + OVERLOADED)));
        assertEquals(InspectorVerdict.Forward.Reason.LIMIT_REACHED, f.reason());
        assertArrayEquals(bytes(MESSAGE_START + OVERLOADED), f.buffered());
        InspectorVerdict exactFit = new EarlyErrorInspector(MESSAGE_START.length() + OVERLOADED.length())
                .feed(bytes(MESSAGE_START + OVERLOADED));
        assertInstanceOf(InspectorVerdict.Retry.class, exactFit);
    }

    @Test
    void streamEndingDuringThePreambleIsForwarded() {
        EarlyErrorInspector inspector = new EarlyErrorInspector();
        assertInstanceOf(InspectorVerdict.Undecided.class, inspector.feed(bytes(MESSAGE_START + PING)));
        InspectorVerdict.Forward f = assertInstanceOf(InspectorVerdict.Forward.class, inspector.finish());
        assertEquals(InspectorVerdict.Forward.Reason.END_OF_STREAM, f.reason());
        assertArrayEquals(bytes(MESSAGE_START + PING), f.buffered());
    }

    @Test
    void errorFrameCutShortByTheCloseIsStillJudged() {
        EarlyErrorInspector inspector = new EarlyErrorInspector();
        String cut = OVERLOADED.substring(0, OVERLOADED.length() - 2);
        assertInstanceOf(InspectorVerdict.Undecided.class, inspector.feed(bytes(MESSAGE_START + cut)));
        assertEquals("Overloaded", assertInstanceOf(InspectorVerdict.Retry.class, inspector.finish()).message());
    }

    @Test
    void decidedInspectorRefusesMoreInput() {
        EarlyErrorInspector inspector = new EarlyErrorInspector();
        inspector.feed(bytes(BLOCK_START));
        assertThrows(IllegalStateException.class, () -> inspector.feed(bytes(PING)));
        assertThrows(IllegalStateException.class, inspector::finish);
        assertThrows(IllegalArgumentException.class, () -> new EarlyErrorInspector(0));
    }

    @Test
    void nonJsonErrorDataKeepsTheRawTextAsMessage() {
        InspectorVerdict.Retry r = assertInstanceOf(InspectorVerdict.Retry.class,
                inspectWhole("event: error\ndata: upstream overloaded, try later\n\n"));
        assertEquals("upstream overloaded, try later", r.message());
        assertNull(r.errorType());
    }
}
