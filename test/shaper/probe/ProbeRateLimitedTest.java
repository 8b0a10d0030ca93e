package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code /ratelimited}: per-minute buckets, the official headers of each dialect, real usage, 429 + retry-after. */
class ProbeRateLimitedTest {
    private static final String MESSAGES = "{\"model\":\"claude-test\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String CHAT = "{\"model\":\"gpt-test\",\"max_completion_tokens\":50,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private RunningProbe probe;

    @BeforeEach
    void start() {
        probe = RunningProbe.start("-rl-output", "8");
    }

    @AfterEach
    void stop() {
        probe.close();
    }

    private static String header(HttpResponse<String> r, String name) {
        return r.headers().firstValue(name).orElseThrow(() -> new AssertionError("no " + name + " in " + r.headers().map()));
    }

    @Test
    void messagesAnswersChargeTheirUsageAndCarryAnthropicHeadersUntilTheRequestBucketIsEmpty() {
        HttpResponse<String> first = probe.post("/ratelimited/a/v1/messages?rpm=2&itpm=10000&otpm=1000", MESSAGES);
        assertEquals(200, first.statusCode(), first.body());
        JsonNode usage = RunningProbe.json(first.body()).path("usage");
        assertEquals(8, usage.path("output_tokens").asInt(), "-rl-output tokens, under max_tokens 16");
        long input = usage.path("input_tokens").asLong();
        assertEquals("2", header(first, "anthropic-ratelimit-requests-limit"));
        assertEquals("1", header(first, "anthropic-ratelimit-requests-remaining"));
        assertEquals(Long.toString(10000 - input), header(first, "anthropic-ratelimit-input-tokens-remaining"));
        assertEquals("992", header(first, "anthropic-ratelimit-output-tokens-remaining"));
        Instant reset = Instant.parse(header(first, "anthropic-ratelimit-requests-reset"));
        assertTrue(reset.isAfter(Instant.now()) && reset.isBefore(Instant.now().plusSeconds(32)), reset.toString());
        assertEquals(200, probe.post("/ratelimited/a/v1/messages?rpm=2&itpm=10000&otpm=1000", MESSAGES).statusCode());
        HttpResponse<String> refused = probe.post("/ratelimited/a/v1/messages?rpm=2&itpm=10000&otpm=1000", MESSAGES);
        assertEquals(429, refused.statusCode());
        assertEquals("rate_limit_error", RunningProbe.json(refused.body()).path("error").path("type").asText());
        long after = Long.parseLong(header(refused, "retry-after"));
        assertTrue(after >= 1 && after <= 30, "one request refills in 30 s: " + after);
        assertEquals("0", header(refused, "anthropic-ratelimit-requests-remaining"));
        assertEquals(200, probe.post("/ratelimited/b/v1/messages?rpm=2&itpm=10000&otpm=1000", MESSAGES).statusCode(),
                "another path is another account");
        JsonNode counts = RunningProbe.json(probe.get("/__probe/ratelimited").body());
        assertEquals(3, counts.path("admitted").asInt());
        assertEquals(1, counts.path("rejected").asInt());
        assertEquals(24, counts.path("output_tokens").asInt());
    }

    @Test
    void anInputLargerThanWhatRemainsIsRefusedWithTheWaitForThatBucket() {
        String big = MESSAGES.replace("\"hi\"", "\"" + "x".repeat(4000) + "\"");
        assertEquals(200, probe.post("/ratelimited/in/v1/messages?itpm=1200", big).statusCode());
        HttpResponse<String> refused = probe.post("/ratelimited/in/v1/messages?itpm=1200", big);
        assertEquals(429, refused.statusCode());
        long after = Long.parseLong(header(refused, "retry-after"));
        assertTrue(after >= 40 && after <= 51, "about 1000 of 1200 a minute are missing: " + after);
    }

    @Test
    void chatAnswersCarryOpenAiHeadersWithDurationResetsAndTheUsageChunk() {
        HttpResponse<String> r = probe.post("/ratelimited/c/v1/chat/completions?rpm=60&tpm=100000", CHAT);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode usage = RunningProbe.json(r.body()).path("usage");
        assertTrue(usage.path("completion_tokens").asInt() >= 1);
        assertEquals("60", header(r, "x-ratelimit-limit-requests"));
        assertEquals("59", header(r, "x-ratelimit-remaining-requests"));
        assertTrue(header(r, "x-ratelimit-reset-requests").matches("\\d+(\\.\\d+)?m?s|1s|\\d+ms"), header(r, "x-ratelimit-reset-requests"));
        long used = usage.path("prompt_tokens").asLong() + usage.path("completion_tokens").asLong();
        assertEquals(Long.toString(100000 - used), header(r, "x-ratelimit-remaining-tokens"));
        HttpResponse<String> stream = probe.post("/ratelimited/c/v1/chat/completions?rpm=60&tpm=100000",
                CHAT.replace("{\"model\"", "{\"stream\":true,\"stream_options\":{\"include_usage\":true},\"model\""));
        assertEquals(200, stream.statusCode());
        assertTrue(stream.body().contains("\"usage\":{\"prompt_tokens\""), stream.body());
    }

    @Test
    void goDurationsAreSpelledAsOpenAiSpellsThem() {
        assertEquals("20ms", RateLimitedApi.goDuration(20_000_000));
        assertEquals("1s", RateLimitedApi.goDuration(1_000_000_000));
        assertEquals("1.5s", RateLimitedApi.goDuration(1_500_000_000));
        assertEquals("6m0s", RateLimitedApi.goDuration(360_000_000_000L));
    }
}
