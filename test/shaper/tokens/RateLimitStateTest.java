package shaper.tokens;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The upstream's rate-limit headers of both families become the provider's state and series. */
class RateLimitStateTest {
    private static final String MESSAGES = "{\"model\":\"claude-rl\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @Test
    void anthropicHeadersOfAnswersAndOf429sAreExported() throws Exception {
        try (TokenFixture f = TokenFixture.start("/ratelimited", "-retry", "0")) {
            assertEquals(200, f.post("/v1/messages?rpm=2", MESSAGES).statusCode());
            String m = f.metrics();
            assertEquals(2.0, TokenFixture.value(m, "shaper_upstream_ratelimit_limit{kind=\"requests\",provider=\"default\"}"), m);
            assertEquals(1.0, TokenFixture.value(m, "shaper_upstream_ratelimit_remaining{kind=\"requests\",provider=\"default\"}"));
            assertEquals(30000.0, TokenFixture.value(m, "shaper_upstream_ratelimit_limit{kind=\"input_tokens\",provider=\"default\"}"));
            double reset = TokenFixture.value(m, "shaper_upstream_ratelimit_reset_seconds{kind=\"requests\",provider=\"default\"}");
            assertTrue(reset > 0 && reset <= 31, "one request refills in 30 s: " + reset);
            assertEquals(200, f.post("/v1/messages?rpm=2", MESSAGES).statusCode());
            assertEquals(429, f.post("/v1/messages?rpm=2", MESSAGES).statusCode());
            assertEquals(0.0, TokenFixture.value(f.metrics(), "shaper_upstream_ratelimit_remaining{kind=\"requests\",provider=\"default\"}"),
                    "a 429's headers count too");
        }
    }

    @Test
    void openAiHeadersWithDurationResetsAreExported() throws Exception {
        try (TokenFixture f = TokenFixture.start("/ratelimited")) {
            assertEquals(200, f.post("/v1/chat/completions?rpm=60&tpm=90000",
                    "{\"model\":\"gpt-rl\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").statusCode());
            String m = f.metrics();
            assertEquals(60.0, TokenFixture.value(m, "shaper_upstream_ratelimit_limit{kind=\"requests\",provider=\"default\"}"), m);
            assertEquals(90000.0, TokenFixture.value(m, "shaper_upstream_ratelimit_limit{kind=\"tokens\",provider=\"default\"}"));
            double reset = TokenFixture.value(m, "shaper_upstream_ratelimit_reset_seconds{kind=\"requests\",provider=\"default\"}");
            assertTrue(reset > 0 && reset <= 2, "a minute's 60 requests refill one a second: " + reset);
        }
    }
}
