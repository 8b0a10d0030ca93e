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
 * the breaker's probe; errors in the OpenAI dialects carry {@code x-request-id}. A circuit that
 * transport errors opened says the upstream is unreachable, with {@code api_error}: nothing was
 * overloaded (a circuit that 5xx answers opened stays {@code overloaded_error}, see BreakerGateTest).
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
    private static RunningShaper openCircuit(int port) throws Exception {
        RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + port, "-retry", "0", "-cb-threshold", "1",
                "-cb-open-timeout", "60s", "-release-cooldown", "0", "-failure-hold", "0", "-cb-penalty", "1ms", "-cb-max-penalty", "1ms");
        assertEquals(502, post(shaper, "/v1/messages").statusCode());
        RunningShaper.await("circuit open", BOUND, () -> shaper.server().breaker("default").state() == BreakerState.OPEN);
        return shaper;
    }

    @Test
    void aCircuitOpenedByTransportErrorsAnswersEachClientInItsDialectNamingTheCause() throws Exception {
        int port = closedPort();
        String said = "circuit open: upstream unreachable: connection refused (http://127.0.0.1:" + port + ")";
        try (RunningShaper shaper = openCircuit(port)) {
            HttpResponse<String> messages = post(shaper, "/v1/messages");
            assertEquals(503, messages.statusCode());
            assertTrue(messages.headers().firstValue("content-type").orElseThrow().startsWith("application/json"));
            JsonNode m = JSON.readTree(messages.body());
            assertEquals("error", m.get("type").asText());
            assertEquals("api_error", m.get("error").get("type").asText(), "nothing was overloaded");
            assertTrue(m.get("error").get("message").asText().startsWith(said + "; next try in "), m.toString());
            assertTrue(m.get("error").get("message").asText().endsWith("s (-cb-open-timeout)"), m.toString());
            long retryAfter = Long.parseLong(messages.headers().firstValue("retry-after").orElseThrow());
            assertTrue(retryAfter >= 50 && retryAfter <= 60, "the time until the probe, in seconds: " + retryAfter);
            assertTrue(messages.headers().firstValue("request-id").orElseThrow().startsWith("req_"));

            for (String path : new String[] {"/v1/chat/completions", "/v1/responses"}) {
                HttpResponse<String> openai = post(shaper, path);
                assertEquals(503, openai.statusCode());
                JsonNode o = JSON.readTree(openai.body());
                assertEquals("server_error", o.get("error").get("type").asText(), path);
                assertEquals("circuit_open", o.get("error").get("code").asText(), path);
                assertTrue(o.get("error").get("message").asText().startsWith(said), path + ": " + o);
                assertTrue(openai.headers().firstValue("retry-after").isPresent(), path);
                assertTrue(openai.headers().firstValue("x-request-id").orElseThrow().startsWith("req_"), path + " carries x-request-id");
            }

            HttpResponse<String> plain = post(shaper, "/some/other/path");
            assertEquals(503, plain.statusCode());
            assertTrue(plain.body().startsWith(said) && plain.body().endsWith("\n"), "a path that speaks no API gets plain text: " + plain.body());
            assertTrue(plain.headers().firstValue("retry-after").isPresent());
        }
    }

    @Test
    void anUnreachableUpstreamAnswersAnOpenAiClientInItsDialectNamingCauseAndUpstream() throws Exception {
        int port = closedPort();
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + port, "-retry", "0")) {
            HttpResponse<String> r = post(shaper, "/v1/chat/completions");
            assertEquals(502, r.statusCode());
            assertTrue(r.headers().firstValue("content-type").orElseThrow().startsWith("application/json"));
            assertEquals("{\"error\":{\"type\":\"server_error\",\"code\":\"upstream_unreachable\",\"message\":\"upstream unreachable:"
                    + " connection refused (http://127.0.0.1:" + port + ")\"}}", r.body());
        }
    }

    /** A WebSocket handshake the proxy answers itself speaks the path's dialect too: the tunnel's and the Responses session's. */
    @Test
    void anUnreachableUpstreamAnswersAWebSocketHandshakeInThePathsDialect() throws Exception {
        int port = closedPort();
        String said = "upstream unreachable: connection refused (http://127.0.0.1:" + port + ")";
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + port, "-retry", "0")) {
            for (String path : new String[] {"/v1/messages", "/v1/responses"}) {
                try (shaper.testing.RawHttp raw = new shaper.testing.RawHttp(shaper.port())) {
                    raw.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
                    String got = raw.readToEnd();
                    assertTrue(got.startsWith("HTTP/1.1 502 "), path + ": " + got);
                    assertTrue(got.contains("Content-Type: application/json"), path + ": " + got);
                    JsonNode error = JSON.readTree(got.substring(got.indexOf("\r\n\r\n") + 4)).get("error");
                    assertEquals(path.equals("/v1/messages") ? "api_error" : "server_error", error.get("type").asText(), path);
                    assertEquals(said, error.get("message").asText(), path);
                }
            }
        }
    }

    @Test
    void anUnknownHostIsNamedWithoutTheSocketAddressToString() {
        String words = TransportErrors.words(new java.net.UnknownHostException(
                java.net.InetSocketAddress.createUnresolved("api.antropic.invalid", 443).toString()));
        assertEquals("unknown host api.antropic.invalid", words);
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
