package shaper.tokens;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.observe.ExchangeRecord;
import shaper.testing.RunningShaper;
import shaper.usage.TokenUsage;

/** Usage read from relayed answers over real sockets: each dialect, streams, and a stream that carries none. */
class UsageAccountingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MESSAGES = "{\"model\":\"claude-acct\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String CHAT = "{\"model\":\"gpt-acct\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static ExchangeRecord last(TokenFixture f, int n) {
        RunningShaper.await(n + " records", TokenFixture.BOUND, () -> f.shaper.server().journal("default").recent().size() >= n);
        return f.shaper.server().journal("default").recent().getFirst(); // newest first
    }

    @Test
    void messagesJsonAndStreamAreCountedPerModelInMetricsRecordAndLogLine() throws Exception {
        try (TokenFixture f = TokenFixture.start("/")) {
            HttpResponse<String> json = f.post("/v1/messages", MESSAGES);
            assertEquals(200, json.statusCode());
            JsonNode usage = JSON.readTree(json.body()).path("usage");
            long in = usage.path("input_tokens").asLong();
            long out = usage.path("output_tokens").asLong();
            ExchangeRecord r = last(f, 1);
            assertEquals(new TokenUsage("claude-acct", in, out, 0, 0, 0, TokenUsage.Source.REPORTED), r.usage());
            assertTrue(f.exchangeLines(1).getFirst().contains(" in=" + in + " out=" + out + " "), f.shaper.stdout());

            HttpResponse<String> stream = f.post("/v1/messages", MESSAGES.replace("{\"model\"", "{\"stream\":true,\"model\""));
            assertEquals(200, stream.statusCode());
            assertTrue(stream.body().contains("message_delta"), "the stream was relayed whole");
            TokenUsage streamed = last(f, 2).usage();
            assertEquals(TokenUsage.Source.REPORTED, streamed.source());
            assertEquals(out, streamed.output());
            assertTrue(streamed.input() > in, "the streaming body is longer by its stream flag: " + streamed);

            String m = f.metrics();
            assertEquals((double) in + streamed.input(),
                    TokenFixture.value(m, "shaper_tokens_total{model=\"claude-acct\",provider=\"default\",type=\"input\"}"), m);
            assertEquals(2.0 * out, TokenFixture.value(m, "shaper_tokens_total{model=\"claude-acct\",provider=\"default\",type=\"output\"}"));
            assertEquals(2.0, TokenFixture.value(m, "shaper_model_requests_total{model=\"claude-acct\",provider=\"default\",status=\"2xx\"}"));
        }
    }

    @Test
    void aChatStreamWithItsUsageChunkIsReportedAndOneWithoutIsEstimated() throws Exception {
        try (TokenFixture f = TokenFixture.start("/chat")) {
            String withUsage = CHAT.replace("{\"model\"", "{\"stream\":true,\"stream_options\":{\"include_usage\":true},\"model\"");
            assertEquals(200, f.post("/v1/chat/completions", withUsage).statusCode());
            TokenUsage reported = last(f, 1).usage();
            assertEquals(TokenUsage.Source.REPORTED, reported.source(), reported.toString());
            assertEquals("gpt-acct", reported.model());
            assertTrue(reported.input() > 0 && reported.output() > 0, reported.toString());

            assertEquals(200, f.post("/v1/chat/completions", CHAT.replace("{\"model\"", "{\"stream\":true,\"model\"")).statusCode());
            TokenUsage estimated = last(f, 2).usage();
            assertEquals(TokenUsage.Source.ESTIMATED, estimated.source(), estimated.toString());
            assertTrue(estimated.output() > 0 && estimated.input() > 0, "text at 4 characters a token, input from the body: " + estimated);
            assertTrue(f.exchangeLines(2).get(1).contains(" in=~"), f.shaper.stdout());
        }
    }

    @Test
    void aResponsesStreamIsCountedFromResponseCompleted() throws Exception {
        try (TokenFixture f = TokenFixture.start("/responses")) {
            HttpResponse<String> r = f.post("/v1/responses", "{\"model\":\"gpt-resp\",\"stream\":true,\"input\":\"hi\"}");
            assertEquals(200, r.statusCode());
            TokenUsage u = last(f, 1).usage();
            assertEquals(TokenUsage.Source.REPORTED, u.source(), u.toString());
            assertEquals("gpt-resp", u.model());
            assertTrue(u.output() > 0, u.toString());
        }
    }

    @Test
    void anErrorAnswerCountsTheRequestButNoTokens() throws Exception {
        try (TokenFixture f = TokenFixture.start("/fmt400")) {
            assertEquals(400, f.post("/v1/messages", MESSAGES).statusCode());
            assertEquals(TokenUsage.Source.NONE, last(f, 1).usage().source());
            String m = f.metrics();
            assertEquals(1.0, TokenFixture.value(m, "shaper_model_requests_total{model=\"claude-acct\",provider=\"default\",status=\"4xx\"}"), m);
            assertEquals(-1.0, TokenFixture.value(m, "shaper_tokens_total{model=\"claude-acct\",provider=\"default\",type=\"input\"}"));
        }
    }

    @Test
    void aCodedRequestIsAccountedToTheModelItsDecodedBodyNames() throws Exception {
        byte[] body = MESSAGES.replace("claude-acct", "claude-coded").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (String[] flags : new String[][] {{"-itpm", "100000"}, {}}) {
            try (TokenFixture f = TokenFixture.start("/", flags)) {
                for (String coding : new String[] {"gzip", "zstd"}) {
                    HttpResponse<String> r = TokenFixture.CLIENT.send(java.net.http.HttpRequest.newBuilder(f.shaper.uri("/v1/messages"))
                            .timeout(TokenFixture.BOUND).header("content-type", "application/json").header("content-encoding", coding)
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(shaper.testing.Codings.encode(coding, body))).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertTrue(r.statusCode() > 0, r.body());
                }
                RunningShaper.await("2 records", TokenFixture.BOUND, () -> f.shaper.server().journal("default").recent().size() >= 2);
                for (ExchangeRecord rec : f.shaper.server().journal("default").recent()) {
                    assertEquals("claude-coded", rec.usage().model(), "flags " + java.util.Arrays.toString(flags) + ": " + rec.usage());
                }
            }
        }
    }
}
