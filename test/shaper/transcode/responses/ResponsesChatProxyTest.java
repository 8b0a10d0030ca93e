package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** {@code -transcode-responses-chat} over real sockets: the same request path, Responses in, Chat upstream. */
class ResponsesChatProxyTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private static HttpResponse<String> post(RunningShaper shaper, String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Authorization", "Bearer client-secret")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<JsonNode> events(String sse) {
        List<JsonNode> out = new ArrayList<>();
        for (String frame : sse.split("\n\n")) {
            String name = null;
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    JsonNode json = ResponsesFixtures.json(ResponsesFixtures.bytes(line.substring(6)));
                    assertEquals(name, json.path("type").asText(), "event: equals type");
                    out.add(json);
                }
            }
        }
        return out;
    }

    @Test
    void streamedResponsesRequestIsConvertedBothWays() throws Exception {
        String sse = "data: {\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi \"},\"finish_reason\":null}]}\n\n"
                + "data: {\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"there\"},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: {\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}\n\n"
                + "data: [DONE]\n\n";
        try (ScriptedUpstream up = ScriptedUpstream.start((r, ex) -> {
            ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
            ex.chunk(sse);
            ex.endChunks();
        }); RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat")) {
            HttpResponse<String> res = post(shaper, "/v1/responses", "{\"model\":\"gpt-x\",\"stream\":true,\"instructions\":\"be kind\","
                    + "\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hello\"}]}]}");
            assertEquals(200, res.statusCode());
            assertTrue(res.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
            List<JsonNode> events = events(res.body());
            assertEquals("response.created", events.get(0).path("type").asText());
            assertEquals("response.completed", events.get(events.size() - 1).path("type").asText());
            for (int i = 0; i < events.size(); i++) {
                assertEquals(i, events.get(i).path("sequence_number").asInt());
            }
            assertEquals("Hi there", events.get(events.size() - 1).path("response").path("output").get(0).path("content").get(0).path("text").asText());
            RecordedRequest upstream = up.onlyRequest();
            assertEquals("/v1/chat/completions", upstream.target());
            JsonNode chat = ResponsesFixtures.json(upstream.body());
            assertEquals("system", chat.path("messages").get(0).path("role").asText());
            assertEquals("be kind", chat.path("messages").get(0).path("content").asText());
            assertEquals("hello", chat.path("messages").get(1).path("content").asText());
            assertFalse(upstream.has("authorization"), "no transcode auth configured: the client credential is stripped");
        }
    }

    @Test
    void eachConvertedEventReachesTheClientBeforeTheUpstreamSendsMore() throws Exception {
        java.util.concurrent.CountDownLatch seen = new java.util.concurrent.CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((r, ex) -> {
            ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
            ex.chunk("data: {\"id\":\"chatcmpl-3\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"first\"},\"finish_reason\":null}]}\n\n");
            if (!seen.await(20, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new java.io.IOException("the client never saw the first delta");
            }
            ex.chunk("data: {\"id\":\"chatcmpl-3\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" second\"},\"finish_reason\":\"stop\"}]}\n\n"
                    + "data: [DONE]\n\n");
            ex.endChunks();
        }); RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat")) {
            HttpResponse<java.io.InputStream> res = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/responses")).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"stream\":true,\"input\":\"x\"}"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(res.body(), java.nio.charset.StandardCharsets.UTF_8));
            StringBuilder all = new StringBuilder();
            for (String line; (line = in.readLine()) != null; ) {
                all.append(line).append('\n');
                if (line.contains("response.output_text.delta") && line.contains("first")) {
                    seen.countDown();
                }
            }
            assertEquals(0, seen.getCount(), "the first delta arrived while the upstream held the rest: " + all);
            assertTrue(all.toString().contains("first second"), all.toString());
        }
    }

    @Test
    void nonStreamingRequestGetsTheResponsesObject() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((r, ex) -> ex.respond(200, "{\"id\":\"chatcmpl-2\",\"choices\":[{\"index\":0,"
                + "\"finish_reason\":\"stop\",\"message\":{\"role\":\"assistant\",\"content\":\"done\"}}],"
                + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat")) {
            HttpResponse<String> res = post(shaper, "/v1/responses", "{\"model\":\"gpt-x\",\"input\":\"hello\"}");
            assertEquals(200, res.statusCode(), res.body());
            JsonNode r = ResponsesFixtures.json(ResponsesFixtures.bytes(res.body()));
            assertEquals("response", r.path("object").asText());
            assertEquals("gpt-x", r.path("model").asText());
            assertEquals("done", r.path("output").get(0).path("content").get(0).path("text").asText());
        }
    }

    @Test
    void upstreamRateLimitIsRelayedInTheResponsesDialectWithRetryAfter() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((r, ex) -> ex.respond(429,
                "{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit_error\",\"code\":\"rate_limit_exceeded\"}}",
                "Content-Type: application/json", "Retry-After: 7"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat")) {
            HttpResponse<String> res = post(shaper, "/v1/responses", "{\"model\":\"gpt-x\",\"input\":\"hello\",\"stream\":true}");
            assertEquals(429, res.statusCode());
            assertEquals("7", res.headers().firstValue("retry-after").orElse(null));
            JsonNode err = ResponsesFixtures.json(ResponsesFixtures.bytes(res.body())).path("error");
            assertEquals("slow down", err.path("message").asText());
            assertEquals("rate_limit_error", err.path("type").asText());
            assertEquals("rate_limit_exceeded", err.path("code").asText());
        }
    }

    @Test
    void alwaysErrorControlIsALocal400ThatNeverReachesTheUpstream() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat",
                     "-transcode-allow-loss", "previous_response_id")) {
            HttpResponse<String> res = post(shaper, "/v1/responses", "{\"model\":\"gpt-x\",\"input\":\"hello\",\"background\":true}");
            assertEquals(400, res.statusCode());
            JsonNode err = ResponsesFixtures.json(ResponsesFixtures.bytes(res.body())).path("error");
            assertEquals("transcode field background uses unsupported feature \"responses_controls\"", err.path("message").asText());
            assertEquals("invalid_request_error", err.path("type").asText());
            assertEquals(0, up.requests().size());
        }
    }

    @Test
    void otherMethodsOnTheRouteStayPassthrough() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("{\"object\":\"list\"}");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat")) {
            HttpResponse<String> res = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/responses/resp_1")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, res.statusCode());
            assertEquals("/v1/responses/resp_1", up.onlyRequest().target());
        }
    }

    @Test
    void customRouteMapsAnotherPath() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((r, ex) -> ex.respond(200, "{\"id\":\"c\",\"choices\":[{\"index\":0,"
                + "\"finish_reason\":\"stop\",\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}]}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(),
                     "-transcode-route", "responses@/openai/v1/responses=chat-completions@/api/chat")) {
            HttpResponse<String> res = post(shaper, "/openai/v1/responses", "{\"model\":\"m\",\"input\":\"x\"}");
            assertEquals(200, res.statusCode(), res.body());
            assertEquals("/api/chat", up.onlyRequest().target());
            assertTrue(res.body().contains("\"usage\":null"), "no upstream usage: null, never invented zeros");
        }
    }
}
