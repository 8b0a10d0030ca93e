package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** The status/body fixtures: what each answers, how often, and that each path counts on its own. */
class ProbeFailureFixturesTest {
    private static final String BODY = "{\"model\":\"claude-test\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private RunningProbe probe;

    @BeforeEach
    void start() {
        probe = RunningProbe.start();
    }

    @AfterEach
    void stop() {
        probe.close();
    }

    @Test
    void okAnswersAMessageOnEveryPathBelowIt() {
        for (String path : new String[] {"/ok", "/ok/v1/messages", "/ok/anything/else"}) {
            HttpResponse<String> r = probe.post(path, BODY);
            assertEquals(200, r.statusCode(), path);
            JsonNode msg = RunningProbe.json(r.body());
            assertEquals("message", msg.path("type").asText());
            assertEquals("claude-test", msg.path("model").asText());
        }
    }

    @Test
    void alwaysFailingFixturesAnswerTheSameOnEveryHit() {
        assertAlways("/rate422/v1/messages", 422, "rate_limit_error", "too_many_requests");
        assertAlways("/fmt422/v1/messages", 422, "unprocessable_entity", "unexpected format");
        assertAlways("/fmt400/v1/messages", 400, "invalid_request_error", "field required");
        assertAlways("/unavail503/v1/messages", 503, "api_error", "Upstream service unavailable");
        assertAlways("/reject502/v1/messages", 502, "invalid_request_error", "rejected the request as invalid");
    }

    @Test
    void formatErrorsCarryNoRetryableWording() {
        for (String path : new String[] {"/fmt422", "/fmt400"}) {
            String body = probe.post(path, BODY).body().toLowerCase();
            for (String word : new String[] {"too_many_requests", "rate limit", "quota exceeded", "overloaded",
                    "failed before output", "high demand", "upstream service unavailable"}) {
                assertFalse(body.contains(word), path + " says " + word);
            }
        }
    }

    @Test
    void azureAlwaysIsA429WithRetryAfterAndRateLimitWording() {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = probe.post("/azurealways/openai/deployments/d/chat/completions", BODY);
            assertEquals(429, r.statusCode());
            assertEquals("1", r.headers().firstValue("retry-after").orElseThrow());
            JsonNode err = RunningProbe.json(r.body()).path("error");
            assertEquals("429", err.path("code").asText());
            assertTrue(err.path("message").asText().contains("rate limit"), r.body());
        }
    }

    @Test
    void flaky422FailsTwiceThenSucceedsPerPath() {
        assertEquals(422, probe.post("/flaky422/x", BODY).statusCode());
        assertEquals(422, probe.post("/flaky422/y", BODY).statusCode());
        HttpResponse<String> second = probe.post("/flaky422/x", BODY);
        assertEquals(422, second.statusCode());
        assertTrue(second.body().contains("too_many_requests"), second.body());
        assertEquals(200, probe.post("/flaky422/x", BODY).statusCode());
        assertEquals(200, probe.post("/flaky422/x", BODY).statusCode());
        assertEquals(422, probe.post("/flaky422/y", BODY).statusCode(), "/flaky422/y has its own counter");
        assertEquals(200, probe.post("/flaky422/y", BODY).statusCode());
        JsonNode stats = probe.stats();
        assertEquals(4, stats.path("hits").path("/flaky422/x").asLong());
        assertEquals(3, stats.path("hits").path("/flaky422/y").asLong());
        assertEquals(7, stats.path("prefixes").path("/flaky422").path("hits").asLong());
    }

    @Test
    void failuresFlagAndFailsParameterSetHowManyCallsFail() {
        try (RunningProbe once = RunningProbe.start("-failures", "1")) {
            assertEquals(422, once.post("/flakybefore/a", BODY).statusCode());
            assertEquals(200, once.post("/flakybefore/a", BODY).statusCode());
            assertEquals(200, once.post("/flaky422/b?fails=0", BODY).statusCode());
            for (int i = 0; i < 3; i++) {
                assertEquals(422, once.post("/flaky422/c?fails=3", BODY).statusCode());
            }
            assertEquals(200, once.post("/flaky422/c?fails=3", BODY).statusCode());
        }
    }

    @Test
    void flakyBeforeSaysFailedBeforeOutput() {
        HttpResponse<String> r = probe.post("/flakybefore/v1/messages", BODY);
        assertEquals(422, r.statusCode());
        assertTrue(r.body().contains("failed before output"), r.body());
    }

    @Test
    void flakyConnDropsTheConnectionWithoutAResponseThenSucceeds() throws Exception {
        for (int i = 0; i < 2; i++) {
            HttpRequest req = HttpRequest.newBuilder(probe.uri("/flakyconn/v1/messages")).timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
            assertThrows(IOException.class, () -> probe.client().send(req, HttpResponse.BodyHandlers.ofString()));
        }
        assertEquals(200, probe.post("/flakyconn/v1/messages", BODY).statusCode());
        assertEquals(3, probe.stats().path("hits").path("/flakyconn/v1/messages").asLong());
    }

    @Test
    void retry429SendsRetryAfterInWholeSecondsThenSucceeds() {
        HttpResponse<String> first = probe.post("/retry429/v1/messages?after=1500ms", BODY);
        assertEquals(429, first.statusCode());
        assertEquals("2", first.headers().firstValue("retry-after").orElseThrow());
        assertEquals("rate_limit_error", RunningProbe.json(first.body()).path("error").path("type").asText());
        assertEquals("1", probe.post("/retry429/v1/messages", BODY).headers().firstValue("retry-after").orElseThrow());
        assertEquals(200, probe.post("/retry429/v1/messages", BODY).statusCode());
    }

    @Test
    void burst5xxFailsWithTheChosenStatusThenSucceeds() {
        assertEquals(503, probe.post("/burst5xx/a", BODY).statusCode());
        assertEquals(503, probe.post("/burst5xx/a", BODY).statusCode());
        assertEquals(200, probe.post("/burst5xx/a", BODY).statusCode());
        for (int i = 0; i < 3; i++) {
            assertEquals(500, probe.post("/burst5xx/b?status=500&fails=3", BODY).statusCode());
        }
        assertEquals(200, probe.post("/burst5xx/b?status=500&fails=3", BODY).statusCode());
    }

    @Test
    void stale400RejectsOnlyBodiesCarryingReasoningCarriers() {
        String carried = "{\"model\":\"m\",\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\","
                + "\"thinking\":\"\",\"signature\":\"ccswitch-openai-reasoning-abc\"}]}]}";
        HttpResponse<String> rejected = probe.post("/stale400/v1/messages", carried);
        assertEquals(400, rejected.statusCode());
        assertEquals("invalid_encrypted_content", RunningProbe.json(rejected.body()).path("error").path("code").asText());
        assertEquals(200, probe.post("/stale400/v1/messages", BODY).statusCode());
    }

    @Test
    void unknownPathIs404AndNotCounted() {
        HttpResponse<String> r = probe.post("/nope/v1/messages", BODY);
        assertEquals(404, r.statusCode());
        assertEquals("not_found_error", RunningProbe.json(r.body()).path("error").path("type").asText());
        assertEquals(404, probe.post("/okay", BODY).statusCode(), "a prefix matches whole segments only");
        assertEquals(0, probe.stats().path("hits").size());
    }

    @Test
    void badQueryParameterIs400NamingIt() {
        HttpResponse<String> r = probe.post("/burst5xx/a?status=404", BODY);
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("status: 404 (expected: 500..599)"), r.body());
        HttpResponse<String> d = probe.post("/slow?delay=soon", BODY);
        assertEquals(400, d.statusCode());
        assertTrue(d.body().contains("delay: "), d.body());
    }

    private void assertAlways(String path, int status, String type, String wording) {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = probe.post(path, BODY);
            assertEquals(status, r.statusCode(), path);
            assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow(), path);
            JsonNode err = RunningProbe.json(r.body());
            assertEquals("error", err.path("type").asText(), path);
            assertEquals(type, err.path("error").path("type").asText(), path);
            assertTrue(err.path("error").path("message").asText().contains(wording), r.body());
        }
        assertEquals(3, probe.stats().path("hits").path(path).asLong(), path);
    }
}
