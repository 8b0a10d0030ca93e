package shaper.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.cli.CommandLineParser;
import shaper.config.ConfigException;
import shaper.observe.ExchangeRecord;
import shaper.observe.RouteTrail;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * One mount, routed by the body's model: each route's target serves the request its own way (an
 * Anthropic passthrough, or a Chat provider through its transcoded route) with its own credentials,
 * a mapped target is asked for its own model, an unrouted model is refused in the client's dialect,
 * and {@code GET /v1/models} lists the routes' models in the client's list shape.
 */
class ModelRoutingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"gpt-5-mini\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"from chat\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}";
    private static final String CLIENT_KEY = "sk-ant-client-key-must-not-cross";

    @TempDir
    Path dir;

    private RunningShaper twoDialects(ScriptedUpstream ant, ScriptedUpstream chat, String... server) throws Exception {
        Path antKey = Files.writeString(dir.resolve("ant"), "sk-ant-team-secret\n");
        Path chatKey = Files.writeString(dir.resolve("chat"), "sk-gateway-secret\n");
        List<String> flags = new java.util.ArrayList<>(List.of("-model-route", "claude-opus-*=a", "-model-route", "claude-haiku-*=b:gpt-5-mini",
                "-model-route", "claude-sonnet-4=a,b:gpt-5"));
        flags.addAll(List.of(server));
        return Routed.start(flags, ant.url(), List.of("-auth-source", "file:" + antKey, "-auth-mode", "x-api-key"),
                chat.url(), List.of("-auth-source", "file:" + chatKey, "-transcode-messages-chat"));
    }

    @Test
    void eachModelGoesToItsRoutesTargetWithThatProvidersCredentialsAndDialect() throws Exception {
        try (ScriptedUpstream ant = ScriptedUpstream.ok("{\"type\":\"message\",\"from\":\"anthropic\"}");
             ScriptedUpstream chat = ScriptedUpstream.start((req, ex) -> ex.respond(200, COMPLETION, "Content-Type: application/json"));
             RunningShaper shaper = twoDialects(ant, chat)) {
            HttpResponse<String> opus = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-opus-4"), "x-api-key", CLIENT_KEY);
            assertEquals("{\"type\":\"message\",\"from\":\"anthropic\"}", opus.body());
            RecordedRequest toAnt = ant.onlyRequest();
            assertEquals("/v1/messages", toAnt.target());
            assertEquals(List.of("sk-ant-team-secret"), toAnt.values("x-api-key"), "the provider's key replaces the client's");
            assertTrue(toAnt.bodyText().contains("\"claude-opus-4\""), "an unmapped target gets the client's model");

            HttpResponse<String> haiku = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-haiku-4-5"), "x-api-key", CLIENT_KEY);
            assertEquals(200, haiku.statusCode(), haiku.body());
            JsonNode answer = JSON.readTree(haiku.body());
            assertEquals("message", answer.path("type").asText(), "the Chat answer comes back as a Messages answer: " + haiku.body());
            assertEquals("from chat", answer.path("content").path(0).path("text").asText());
            RecordedRequest toChat = chat.onlyRequest();
            assertEquals("/v1/chat/completions", toChat.target(), "through b's transcoded route");
            assertEquals("gpt-5-mini", JSON.readTree(toChat.body()).path("model").asText(), "the route maps the model");
            assertEquals(List.of("Bearer sk-gateway-secret"), toChat.values("Authorization"));
            for (RecordedRequest r : List.of(toAnt, toChat)) {
                assertFalse((r.headers() + r.bodyText()).contains(CLIENT_KEY), "the client's credential never crosses");
            }
            ExchangeRecord rec = Routed.newest(shaper, "b", 1);
            assertEquals(new RouteTrail("claude-haiku-*", "b", List.of()), rec.routing());
            assertEquals("a", Routed.newest(shaper, "a", 1).provider());
        }
    }

    @Test
    void theProvidersKeepTheirOwnMounts() throws Exception {
        try (ScriptedUpstream ant = ScriptedUpstream.ok("{\"from\":\"anthropic\"}");
             ScriptedUpstream chat = ScriptedUpstream.start((req, ex) -> ex.respond(200, COMPLETION, "Content-Type: application/json"));
             RunningShaper shaper = twoDialects(ant, chat)) {
            assertEquals("{\"from\":\"anthropic\"}", Routed.postNow(shaper, "/a/v1/messages", Routed.messages("llama-3")).body(),
                    "a provider's own mount does not read the model");
            assertEquals(RouteTrail.NONE, Routed.newest(shaper, "a", 1).routing());
        }
    }

    @Test
    void aModelNoRouteNamesIsRefusedInTheClientsDialect() throws Exception {
        try (ScriptedUpstream ant = ScriptedUpstream.ok("{}");
             ScriptedUpstream chat = ScriptedUpstream.ok("{}");
             RunningShaper shaper = twoDialects(ant, chat)) {
            HttpResponse<String> messages = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("llama-3"));
            assertEquals(404, messages.statusCode());
            JsonNode err = JSON.readTree(messages.body());
            assertEquals("error", err.path("type").asText());
            assertEquals("not_found_error", err.path("error").path("type").asText());
            assertTrue(err.path("error").path("message").asText().contains("llama-3"), messages.body());
            HttpResponse<String> chatAsk = Routed.postNow(shaper, "/r/v1/chat/completions", "{\"model\":\"gpt-4o\",\"messages\":[]}");
            assertEquals(404, chatAsk.statusCode());
            assertEquals("model_not_found", JSON.readTree(chatAsk.body()).path("error").path("code").asText(), chatAsk.body());
            assertEquals(0, ant.requests().size() + chat.requests().size());
            RunningShaper.await("both refusals logged", Routed.BOUND, () -> shaper.logLines("reason=no_route").size() == 2);
        }
    }

    @Test
    void modelsListsTheRoutesModelsInEachClientsShape() throws Exception {
        try (ScriptedUpstream ant = ScriptedUpstream.ok("{}");
             ScriptedUpstream chat = ScriptedUpstream.ok("{}");
             RunningShaper shaper = twoDialects(ant, chat, "-model-route", "gpt-5=b", "-model-route", "claude-sonnet-4=b")) {
            HttpResponse<String> anthropic = Routed.CLIENT.send(HttpRequest.newBuilder(shaper.uri("/r/v1/models"))
                    .header("anthropic-version", "2023-06-01").timeout(Routed.BOUND).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, anthropic.statusCode());
            JsonNode a = JSON.readTree(anthropic.body());
            assertEquals(List.of("claude-sonnet-4", "gpt-5"), ids(a.path("data")), "patterns that name one model, once each");
            assertEquals("model", a.path("data").path(0).path("type").asText());
            assertFalse(a.path("has_more").asBoolean(true));
            HttpResponse<String> openai = Routed.CLIENT.send(HttpRequest.newBuilder(shaper.uri("/r/v1/models"))
                    .header("Authorization", "Bearer x").timeout(Routed.BOUND).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode o = JSON.readTree(openai.body());
            assertEquals("list", o.path("object").asText());
            assertEquals(List.of("claude-sonnet-4", "gpt-5"), ids(o.path("data")));
            assertEquals("model", o.path("data").path(1).path("object").asText());
            assertEquals(0, ant.requests().size() + chat.requests().size(), "answered by the routed mount itself");
            RunningShaper.await("both lists recorded", Routed.BOUND, () -> shaper.server().journal("a").recent().size() == 2);
        }
    }

    private static List<String> ids(JsonNode data) {
        List<String> ids = new java.util.ArrayList<>();
        data.forEach(m -> ids.add(m.path("id").asText()));
        return ids;
    }

    @Test
    void routesThatNameNoProviderOrOverlapAMountAreRefusedAtStartup() {
        ConfigException unknown = assertThrows(ConfigException.class, () -> CommandLineParser.parse(List.of("-route-prefix", "/r",
                "-model-route", "gpt-*=nobody", "--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a")));
        assertTrue(unknown.getMessage().contains("no provider named \"nobody\""), unknown.getMessage());
        ConfigException overlap = assertThrows(ConfigException.class, () -> CommandLineParser.parse(List.of("-route-prefix", "/a/r",
                "-model-route", "gpt-*=a", "--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a")));
        assertTrue(overlap.getMessage().contains("overlaps"), overlap.getMessage());
        ConfigException malformed = assertThrows(ConfigException.class, () -> CommandLineParser.parse(List.of("-route-prefix", "/r",
                "-model-route", "gpt-*", "--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a")));
        assertTrue(malformed.getMessage().contains("PATTERN=PROVIDER"), malformed.getMessage());
        ConfigException alone = assertThrows(ConfigException.class, () -> CommandLineParser.parse(List.of(
                "-model-route", "gpt-*=a", "--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a")));
        assertTrue(alone.getMessage().contains("-route-prefix"), alone.getMessage());
    }
}
