package shaper.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;

/** Usage read from relayed answers of every dialect, whatever the read boundaries. */
class UsageScannerTest {
    private static final String SSE = "text/event-stream; charset=utf-8";
    private static final int[] CHUNKINGS = {1, 3, 7, 64, 100_000};

    private static final String MESSAGES_STREAM = """
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":25,"cache_creation_input_tokens":100,"cache_read_input_tokens":900,"output_tokens":1}}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

            event: ping
            data: {"type": "ping"}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}

            event: message_stop
            data: {"type":"message_stop"}

            """;

    private static TokenUsage scan(String contentType, byte[] body, int chunk, int status, String requestModel, long estimate) {
        UsageScanner s = UsageScanner.forContentType(contentType);
        for (int i = 0; i < body.length; i += chunk) {
            s.feed(body, i, Math.min(chunk, body.length - i));
        }
        return s.finish(status, requestModel, () -> estimate);
    }

    private static void assertEveryChunking(String contentType, String body, TokenUsage expected) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        for (int chunk : CHUNKINGS) {
            assertEquals(expected, scan(contentType, bytes, chunk, 200, null, 0), "read " + chunk + " bytes at a time");
        }
    }

    private static String field(String path) throws Exception {
        return Files.readString(ProjectRoot.find().resolve("test/shaper/transcode/" + path));
    }

    @Test
    void messagesStreamTakesInputFromMessageStartAndTheCumulativeOutputFromMessageDelta() {
        assertEveryChunking(SSE, MESSAGES_STREAM,
                new TokenUsage("claude-sonnet-4-5", 25, 15, 900, 100, 0, TokenUsage.Source.REPORTED));
        assertEveryChunking(SSE, MESSAGES_STREAM.replace("\n", "\r\n"),
                new TokenUsage("claude-sonnet-4-5", 25, 15, 900, 100, 0, TokenUsage.Source.REPORTED));
    }

    @Test
    void messagesJson() {
        String body = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-haiku-4-5\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"The \\\"usage\\\":{\\\"input_tokens\\\":9} is text\"}],"
                + "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":0,"
                + "\"cache_read_input_tokens\":3,\"output_tokens\":6}}";
        assertEveryChunking("application/json", body,
                new TokenUsage("claude-haiku-4-5", 12, 6, 3, 0, 0, TokenUsage.Source.REPORTED));
    }

    @Test
    void chatJsonTakesCacheReadsAndWritesOutOfThePrompt() throws Exception {
        // prompt 40 = 0 uncached + 16 read + 24 written; 12 completion tokens of which 8 reasoning
        assertEveryChunking("application/json", field("field/qwen_nonstream_field.json"),
                new TokenUsage("Qwen/Qwen3-32B", 0, 12, 16, 24, 8, TokenUsage.Source.REPORTED));
        String body = "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,"
                + "\"completion_tokens\":3,\"total_tokens\":23,\"prompt_tokens_details\":{\"cached_tokens\":5,\"created_cache_tokens\":7}}}";
        assertEveryChunking("application/json", body, new TokenUsage("m", 8, 3, 5, 7, 0, TokenUsage.Source.REPORTED));
    }

    @Test
    void chatStreamTakesTheFinalUsageChunk() throws Exception {
        assertEveryChunking(SSE, field("field/qwen_stream_field.sse"),
                new TokenUsage("Qwen/Qwen3-Coder-30B-A3B-Instruct", 300, 3, 512, 0, 0, TokenUsage.Source.REPORTED));
    }

    @Test
    void responsesStreamTakesResponseCompleted() throws Exception {
        String body = """
                event: response.created
                data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-5-codex","output":[],"usage":null}}

                event: response.output_text.delta
                data: {"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}

                event: response.completed
                data: {"type":"response.completed","sequence_number":2,"response":{"id":"resp_1","object":"response","status":"completed","model":"gpt-5-codex","output":[{"type":"message","content":[{"type":"output_text","text":"Hi"}]}],"usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":100},"output_tokens":40,"output_tokens_details":{"reasoning_tokens":32},"total_tokens":160}}}

                """;
        assertEveryChunking(SSE, body, new TokenUsage("gpt-5-codex", 20, 40, 100, 0, 32, TokenUsage.Source.REPORTED));
    }

    @Test
    void responsesDataOnlyStreamFromTheField() throws Exception {
        assertEveryChunking(SSE, field("responses/field/data_only_responses_stream_field.sse"),
                new TokenUsage("camel-large", 20, 18, 100, 0, 6, TokenUsage.Source.REPORTED));
    }

    @Test
    void aStreamWithoutUsageIsEstimatedFromItsTextAndTheRequest() {
        String body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"abcdefgh\"}}]}\n\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ijkl\",\"reasoning_content\":\"mnop\"}}]}\n\ndata: [DONE]\n\n";
        for (int chunk : CHUNKINGS) {
            TokenUsage u = scan(SSE, body.getBytes(StandardCharsets.UTF_8), chunk, 200, "gpt-x", 50);
            assertEquals(new TokenUsage("gpt-x", 50, 4, 0, 0, 0, TokenUsage.Source.ESTIMATED), u, "16 characters are 4 tokens");
        }
    }

    @Test
    void anErrorAnswerCountsNothingAndTheRequestsModelWins() {
        TokenUsage u = scan("application/json", "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}"
                .getBytes(StandardCharsets.UTF_8), 5, 429, "claude-opus-4-1", 1000);
        assertEquals(TokenUsage.NONE.withModel("claude-opus-4-1"), u);
    }

    @Test
    void aBodyLargerThanTheWindowStillYieldsItsUsageFromTheTail() {
        StringBuilder text = new StringBuilder();
        while (text.length() < 300_000) {
            text.append("lorem ipsum dolor sit amet ");
        }
        String body = "{\"id\":\"msg_1\",\"type\":\"message\",\"model\":\"claude-big\",\"content\":[{\"type\":\"text\",\"text\":\""
                + text + "\"}],\"usage\":{\"input_tokens\":7,\"output_tokens\":75000}}";
        assertEveryChunking("application/json", body, new TokenUsage("claude-big", 7, 75000, 0, 0, 0, TokenUsage.Source.REPORTED));
        TokenUsage estimated = scan("application/json", body.replace("\"usage\"", "\"nothing\"").getBytes(StandardCharsets.UTF_8),
                8192, 200, null, 0);
        assertTrue(estimated.estimated() && estimated.output() > 60_000, estimated.toString());
    }

    @Test
    void modelLabelsAreBoundedPerProvider() {
        ModelLabels labels = new ModelLabels();
        for (int i = 0; i < ModelLabels.LIMIT; i++) {
            assertEquals("m" + i, labels.label("m" + i));
        }
        assertEquals(ModelLabels.OTHER, labels.label("one-too-many"));
        assertEquals("m3", labels.label("m3"));
        assertEquals(ModelLabels.UNKNOWN, labels.label(""));
    }

    @Test
    void aGzipBodyIsDecodedForTheScanOnly() throws Exception {
        String body = "{\"model\":\"claude-z\",\"content\":[],\"usage\":{\"input_tokens\":4,\"output_tokens\":2}}";
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            out.write(body.getBytes(StandardCharsets.UTF_8));
        }
        byte[] bytes = gz.toByteArray();
        for (int chunk : CHUNKINGS) {
            UsageScanner s = UsageScanner.forEncodedBody("application/json", "gzip");
            for (int i = 0; i < bytes.length; i += chunk) {
                s.feed(bytes, i, Math.min(chunk, bytes.length - i));
            }
            assertEquals(new TokenUsage("claude-z", 4, 2, 0, 0, 0, TokenUsage.Source.REPORTED), s.finish(200, null, () -> 0), "chunk " + chunk);
        }
        UsageScanner br = UsageScanner.forEncodedBody("application/json", "br");
        br.feed(bytes, 0, bytes.length);
        assertEquals(TokenUsage.Source.ESTIMATED, br.finish(200, "m", () -> 10).source(), "unreadable: estimated");
    }

    @Test
    void anAnswerThatIsNeitherJsonNorAStreamIsNotLookedAt() {
        byte[] page = "<html>{\"usage\":{\"input_tokens\":3}}</html>".getBytes(StandardCharsets.UTF_8);
        UsageScanner s = UsageScanner.forContentType("text/html");
        s.feed(page, 0, page.length);
        assertEquals(TokenUsage.NONE, s.finish(200, null, () -> 0));
    }

    @Test
    void theRequestsModelIsItsTopLevelModelNotOneQuotedInsideText() {
        byte[] body = "{\"messages\":[{\"role\":\"user\",\"content\":\"say \\\"model\\\": \\\"fake\\\"\"}],\"model\":\"claude-real\"}"
                .getBytes(StandardCharsets.UTF_8);
        assertEquals("claude-real", UsageScanner.requestModel(body));
    }

    @Test
    void chatIncludeUsageChunksWithNullUsageCountOnlyTheFinalObject() {
        String stream = """
                data: {"id":"c1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hi"}}],"usage":null}

                data: {"id":"c1","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":" there"}}],"usage": null}

                data: {"id":"c1","model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}}

                data: [DONE]

                """;
        assertEveryChunking(SSE, stream, new TokenUsage("gpt-4o-mini", 12, 2, 0, 0, 0, TokenUsage.Source.REPORTED));
    }

    @Test
    void onlyAUsageKeyWithAnObjectValueAsksForAParse() {
        assertTrue(hasUsageObject("{\"usage\":{\"prompt_tokens\":1}}"));
        assertTrue(hasUsageObject("{\"usage\" :\n {}}"));
        assertTrue(hasUsageObject("{\"usage\":null,\"response\":{\"usage\":{\"input_tokens\":1}}}"));
        assertFalse(hasUsageObject("{\"usage\":null}"));
        assertFalse(hasUsageObject("{\"usage\": null}"));
        assertFalse(hasUsageObject("{\"text\":\"the \\\"usage\\\": {\"}"));
        assertFalse(hasUsageObject("{\"choices\":[]}"));
    }

    private static boolean hasUsageObject(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return JsonText.hasUsageObject(b, b.length);
    }
}
