package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.breaker.BreakerState;
import shaper.testing.RunningShaper;

/**
 * The proxy's own answers speak the client's dialect: an open circuit is the error object of the
 * path's API (plain text where the path speaks none), with a {@code Retry-After} of the time until
 * the breaker's probe; errors in the OpenAI dialects carry {@code x-request-id}.
 */
class LocalAnswerDialectTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static HttpResponse<String> post(RunningShaper s, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(s.uri(path)).timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A proxy in front of nothing whose breaker opens after one failure and stays open for a minute. */
    private static RunningShaper openCircuit() throws Exception {
        RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + closedPort(), "-retry", "0", "-cb-threshold", "1",
                "-cb-open-timeout", "60s", "-release-cooldown", "0", "-failure-hold", "0", "-cb-penalty", "1ms", "-cb-max-penalty", "1ms");
        assertEquals(502, post(shaper, "/v1/messages").statusCode());
        RunningShaper.await("circuit open", BOUND, () -> shaper.server().breaker("default").state() == BreakerState.OPEN);
        return shaper;
    }

    @Test
    void anOpenCircuitAnswersEachClientInItsDialectWithRetryAfterUntilTheProbe() throws Exception {
        try (RunningShaper shaper = openCircuit()) {
            HttpResponse<String> messages = post(shaper, "/v1/messages");
            assertEquals(503, messages.statusCode());
            assertTrue(messages.headers().firstValue("content-type").orElseThrow().startsWith("application/json"));
            JsonNode m = JSON.readTree(messages.body());
            assertEquals("error", m.get("type").asText());
            assertEquals("overloaded_error", m.get("error").get("type").asText());
            assertEquals("circuit open", m.get("error").get("message").asText());
            long retryAfter = Long.parseLong(messages.headers().firstValue("retry-after").orElseThrow());
            assertTrue(retryAfter >= 50 && retryAfter <= 60, "the time until the probe, in seconds: " + retryAfter);
            assertTrue(messages.headers().firstValue("request-id").orElseThrow().startsWith("req_"));

            for (String path : new String[] {"/v1/chat/completions", "/v1/responses"}) {
                HttpResponse<String> openai = post(shaper, path);
                assertEquals(503, openai.statusCode());
                JsonNode o = JSON.readTree(openai.body());
                assertEquals("server_error", o.get("error").get("type").asText(), path);
                assertEquals("circuit_open", o.get("error").get("code").asText(), path);
                assertEquals("circuit open", o.get("error").get("message").asText(), path);
                assertTrue(openai.headers().firstValue("retry-after").isPresent(), path);
                assertTrue(openai.headers().firstValue("x-request-id").orElseThrow().startsWith("req_"), path + " carries x-request-id");
            }

            HttpResponse<String> plain = post(shaper, "/some/other/path");
            assertEquals(503, plain.statusCode());
            assertEquals("circuit open\n", plain.body(), "a path that speaks no API gets plain text");
            assertTrue(plain.headers().firstValue("retry-after").isPresent());
        }
    }

    @Test
    void anUnreachableUpstreamIsLoggedInWordsNotExceptionNames() throws Exception {
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + closedPort(), "-retry", "0")) {
            assertEquals(502, post(shaper, "/v1/messages").statusCode());
            RunningShaper.await("the upstream error line", BOUND, () -> !shaper.logLines("upstream error").isEmpty());
            String line = shaper.logLines("upstream error").getFirst();
            assertTrue(line.contains("error=\"connection refused\""), line);
            assertFalse(line.contains("Exception"), line);
        }
    }
}
