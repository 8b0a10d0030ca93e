package shaper.transcode;

import shaper.observe.Provenance;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.breaker.BreakerState;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** A transcoded route inside the one request path, over real sockets. */
class TranscodeProxyTest {
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    static final String MESSAGES = Mappings.request("[{\"role\":\"user\",\"content\":\"hi\"}]", "");
    static final String STREAMING = Mappings.request("[{\"role\":\"user\",\"content\":\"hi\"}]", "\"stream\":true");
    static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
            + "{\"role\":\"assistant\",\"content\":\"hello back\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}";

    @TempDir
    Path dir;

    static HttpResponse<String> post(RunningShaper s, String pathAndQuery, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(s.uri(pathAndQuery)).timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(String s) throws Exception {
        return Mappings.JSON.readTree(s);
    }

    @Test
    void theConvertedRequestGoesToTheChatPathWithOnlyAllowedQueryAndNoClientControls() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, COMPLETION, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url() + "/base", "-transcode-messages-chat")) {
            HttpResponse<String> r = post(shaper, "/v1/messages?beta=true", MESSAGES, "x-api-key", "sk-ant-client", "anthropic-version",
                    "2023-06-01", "anthropic-beta", "tools-2024", "accept-encoding", "gzip", "x-stainless-lang", "js");
            assertEquals(200, r.statusCode(), r.body());
            JsonNode a = json(r.body());
            assertEquals("message", a.get("type").asText());
            assertEquals("hello back", a.get("content").get(0).get("text").asText());
            assertEquals("claude-x", a.get("model").asText());
            RecordedRequest seen = up.onlyRequest();
            assertEquals("/base/v1/chat/completions?beta=true", seen.target());
            for (String gone : new String[] {"x-api-key", "anthropic-version", "anthropic-beta", "accept-encoding"}) {
                assertFalse(seen.has(gone), gone + " crossed the provider boundary: " + seen.names());
            }
            JsonNode chat = json(seen.bodyText());
            assertEquals("hi", chat.get("messages").get(0).get("content").asText());
            assertEquals(Integer.toString(seen.body().length), seen.header("content-length"));
            RunningShaper.await("exchange logged", Duration.ofSeconds(5), () -> !shaper.logLines("path=/v1/messages status=200").isEmpty());
        }
    }

    @Test
    void otherMethodsAndCountTokensPassThroughUntouched() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(404, "{\"error\":\"nope\"}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat")) {
            HttpResponse<String> count = post(shaper, "/v1/messages/count_tokens?beta=true", MESSAGES);
            assertEquals(404, count.statusCode());
            assertEquals("{\"error\":\"nope\"}", count.body(), "passthrough relays the upstream's body as it is");
            HttpResponse<String> get = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, get.statusCode());
            assertEquals("/v1/messages/count_tokens?beta=true", up.requests().get(0).target());
            assertEquals(MESSAGES, up.requests().get(0).bodyText());
            assertEquals("GET", up.requests().get(1).method());
            assertEquals("/v1/messages", up.requests().get(1).target());
        }
    }

    @Test
    void upstreamErrorsReachTheClientInItsDialectWithStatusAndRetryAfter() throws Exception {
        AtomicInteger n = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (n.getAndIncrement() == 0) {
                    ex.respond(429, "{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}",
                            "Content-Type: application/json", "Retry-After: 7", "x-request-id: req_abc");
                } else {
                    ex.respond(503, "<html><body><h1>503 Service Temporarily Unavailable</h1><hr>nginx</body></html>", "Content-Type: text/html");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "0")) {
            HttpResponse<String> limited = post(shaper, "/v1/messages", MESSAGES);
            assertEquals(429, limited.statusCode());
            assertEquals("7", limited.headers().firstValue("retry-after").orElse(null));
            assertEquals("req_abc", limited.headers().firstValue("request-id").orElse(null));
            JsonNode e = json(limited.body());
            assertEquals("error", e.get("type").asText());
            assertEquals("rate_limit_error", e.get("error").get("type").asText());
            assertEquals("Rate limit reached for requests", e.get("error").get("message").asText());
            HttpResponse<String> html = post(shaper, "/v1/messages", MESSAGES);
            assertEquals(503, html.statusCode());
            assertFalse(html.body().contains("<html") || html.body().contains("nginx"), html.body());
            assertEquals("api_error", json(html.body()).get("error").get("type").asText());
        }
    }

    @Test
    void retriesRunThroughTheSamePathAndEachAttemptIsConverted() throws Exception {
        AtomicInteger n = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (n.getAndIncrement() == 0) {
                    ex.respond(503, "{\"error\":{\"message\":\"Upstream service unavailable\"}}", "Content-Type: application/json");
                } else {
                    ex.respond(200, COMPLETION, "Content-Type: application/json");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "2", "-retry-wait-min", "10ms",
                     "-retry-wait-max", "20ms")) {
            HttpResponse<String> r = post(shaper, "/v1/messages", MESSAGES);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("hello back", json(r.body()).get("content").get(0).get("text").asText());
            assertEquals(2, up.requests().size());
            for (RecordedRequest seen : up.requests()) {
                assertEquals("/v1/chat/completions", seen.target());
                assertTrue(json(seen.bodyText()).has("messages"));
            }
        }
    }

    @Test
    void aNegotiationMismatchIsAnUpstreamFailureThatOpensTheBreaker() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, COMPLETION, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "0", "-cb-threshold", "2",
                     "-cb-open-timeout", "1m", "-cb-penalty", "10ms")) {
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> r = post(shaper, "/v1/messages", STREAMING);
                assertEquals(502, r.statusCode(), r.body());
                assertEquals("upstream returned a non-streaming response for a streaming request", json(r.body()).get("error").get("message").asText());
            }
            RunningShaper.await("breaker open", Duration.ofSeconds(5),
                    () -> shaper.server().breaker("default").state() == BreakerState.OPEN);
            assertEquals(503, post(shaper, "/v1/messages", MESSAGES).statusCode());
            assertEquals(2, up.requests().size(), "an open breaker keeps requests from the upstream");
            // the log line is written by the log's own thread, a few milliseconds later
            RunningShaper.await("the upstream_body_error log line", Duration.ofSeconds(5),
                    () -> !shaper.logLines("[upstream_body_error] upstream returned a non-streaming response").isEmpty());
        }
    }

    @Test
    void localConversionErrorsNeverReachTheUpstreamOrTheBreaker() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, COMPLETION, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-cb-threshold", "2")) {
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> r = post(shaper, "/v1/messages", MESSAGES.replace("\"max_tokens\"", "\"bogus\":1,\"max_tokens\""));
                assertEquals(400, r.statusCode());
                JsonNode e = json(r.body());
                assertEquals("invalid_request_error", e.get("error").get("type").asText());
                assertEquals("request.bogus: unknown field", e.get("error").get("message").asText());
            }
            HttpResponse<String> q = post(shaper, "/v1/messages?debug=1", MESSAGES);
            assertEquals(400, q.statusCode());
            assertTrue(q.body().contains("client query parameter \\\"debug\\\" is not allowed on transcoded routes"), q.body());
            HttpResponse<String> loss = post(shaper, "/v1/messages", Mappings.request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"top_k\":3"));
            assertEquals(400, loss.statusCode());
            assertTrue(loss.body().contains("transcode field top_k uses unsupported feature \\\"top_k\\\""), loss.body());
            assertEquals(0, up.requests().size());
            assertEquals(BreakerState.CLOSED, shaper.server().breaker("default").state());
            assertEquals(200, post(shaper, "/v1/messages", MESSAGES).statusCode());
            RunningShaper.await("the local_request_conversion_error log line", Duration.ofSeconds(5),
                    () -> !shaper.logLines("[local_request_conversion_error]").isEmpty());
            // the exchange record carries the provenance: the metrics and the TUI tell it from an upstream failure
            RunningShaper.await("seven records", java.time.Duration.ofSeconds(5),
                    () -> shaper.server().journal("default").recent().size() >= 7);
            var records = shaper.server().journal("default").recent();
            assertEquals(Provenance.NONE, records.get(0).provenance());
            for (var r : records.subList(1, 7)) {
                assertEquals(Provenance.LOCAL_CONVERSION, r.provenance(), r.toString());
                assertEquals(400, r.status());
            }
        }
    }

    @Test
    void anOversizedRequestIs413RequestTooLarge() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, COMPLETION, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-transcode-max-request-mb", "1")) {
            String big = Mappings.request("[{\"role\":\"user\",\"content\":\"" + "x".repeat(1_200_000) + "\"}]", "");
            HttpResponse<String> r = post(shaper, "/v1/messages", big);
            assertEquals(413, r.statusCode());
            JsonNode e = json(r.body());
            assertEquals("request_too_large", e.get("error").get("type").asText());
            assertEquals("request body too large", e.get("error").get("message").asText());
            assertEquals(0, up.requests().size());
        }
    }

    @Test
    void transcodeAuthAttachesTheConfiguredCredentialOrReattachesTheClients() throws Exception {
        Path key = Files.writeString(dir.resolve("key"), "sk-upstream-secret\n");
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, COMPLETION, "Content-Type: application/json"));
             RunningShaper secret = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-transcode-auth", "bearer",
                     "-transcode-auth-source", "file:" + key);
             RunningShaper inbound = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-transcode-auth", "bearer",
                     "-transcode-auth-source", "inbound");
             RunningShaper none = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat")) {
            assertEquals(200, post(secret, "/v1/messages", MESSAGES, "x-api-key", "sk-client").statusCode());
            assertEquals(200, post(inbound, "/v1/messages", MESSAGES, "x-api-key", "sk-client").statusCode());
            assertEquals(200, post(none, "/v1/messages", MESSAGES, "x-api-key", "sk-client", "authorization", "Bearer sk-client").statusCode());
            assertEquals("Bearer sk-upstream-secret", up.requests().get(0).header("authorization"));
            assertFalse(up.requests().get(0).has("x-api-key"));
            assertEquals("Bearer sk-client", up.requests().get(1).header("authorization"));
            assertFalse(up.requests().get(1).has("x-api-key"));
            assertNull(up.requests().get(2).header("authorization"), "no auth configured: client credentials are stripped, nothing injected");
            assertFalse(up.requests().get(2).has("x-api-key"));
            assertFalse(secret.stdout().contains("sk-upstream-secret"), "the secret never reaches the log");
        }
    }
}
