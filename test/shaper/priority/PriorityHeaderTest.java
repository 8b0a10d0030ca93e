package shaper.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import shaper.testing.EchoWebSocketUpstream;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TextWebSocket;

/**
 * The priority header is for the proxy alone: removed before forwarding on every route (limited,
 * passthrough, transcoded, the Responses upstream, a WebSocket handshake), classes declared or not.
 */
class PriorityHeaderTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String MESSAGES = "{\"model\":\"claude-x\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String CHAT_ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hello back\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,\"total_tokens\":7}}";

    private static void send(RunningShaper shaper, String path, String header, String value) throws Exception {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).header(header, value).header("X-Kept", "1")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    void theDefaultHeaderIsNeverForwardedOnLimitedOrPassthroughRoutes() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            send(shaper, "/v1/messages", "X-Shaper-Priority", "background");
            send(shaper, "/v1/other", "x-shaper-priority", "interactive");
            assertEquals(2, up.requests().size());
            up.requests().forEach(r -> {
                assertFalse(r.has("X-Shaper-Priority"), r.names().toString());
                assertEquals("1", r.header("X-Kept"));
            });
        }
    }

    @Test
    void theHeaderIsRemovedOnATranscodedRoute() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, CHAT_ANSWER,
                "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat",
                     "-priority-class", "interactive=4", "-priority-class", "background=1")) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).header("X-Shaper-Priority", "background")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(MESSAGES)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("/v1/chat/completions", up.onlyRequest().target());
            assertFalse(up.onlyRequest().has("X-Shaper-Priority"), up.onlyRequest().names().toString());
        }
    }

    @Test
    void theHeaderIsRemovedOnTheResponsesUpstreamRoute() throws Exception {
        try (ScriptedUpstream main = ScriptedUpstream.ok("{}");
             ScriptedUpstream responses = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-upstream", main.url(), "-responses-upstream", responses.url())) {
            send(shaper, "/v1/responses", "X-Shaper-Priority", "background");
            assertEquals(0, main.requests().size());
            assertFalse(responses.onlyRequest().has("X-Shaper-Priority"), responses.onlyRequest().names().toString());
        }
    }

    @Test
    void theHeaderIsRemovedFromAWebSocketHandshake() throws Exception {
        try (EchoWebSocketUpstream up = new EchoWebSocketUpstream();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-priority-class", "interactive=4")) {
            try (TextWebSocket ws = TextWebSocket.open(
                    java.net.URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/realtime"), "X-Shaper-Priority", "interactive")) {
                assertEquals("echo: hi", ws.exchange("hi"));
            }
            assertFalse(up.handshakes().getFirst().has("X-Shaper-Priority"), up.handshakes().getFirst().names().toString());
        }
    }

    @Test
    void aRenamedHeaderIsRemovedWithClassesDeclared() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-priority-header", "X-Lane",
                     "-priority-class", "interactive=4", "-priority-class", "background=1")) {
            send(shaper, "/v1/messages", "X-Lane", "background");
            assertFalse(up.onlyRequest().has("X-Lane"));
        }
    }
}
