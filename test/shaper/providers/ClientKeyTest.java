package shaper.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** -client-key: who may use the port. Checked before any limiter; health stays open. */
class ClientKeyTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final String CLIENT_KEY = "shaper-client-key-0123456789";
    private static final Map<String, String> ENV = Map.of("CK", CLIENT_KEY, "ANT_KEY", "sk-ant-provider-secret");

    private static EnvShaper start(String upA, String upB) {
        return EnvShaper.start(ENV, "-bind", "127.0.0.1:0", "-client-key", "env:CK",
                "--provider=anthropic", "-upstream", upA, "-prefix", "/anthropic", "-auth-source", "env:ANT_KEY",
                "-concurrency", "1", "-limit-all",
                "--provider=openai", "-upstream", upB, "-prefix", "/openai");
    }

    private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return CLIENT.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void missingOrWrongKeyGets401InTheClientsDialectWithoutReachingAnUpstream() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             EnvShaper shaper = start(a.url(), b.url())) {
            HttpResponse<String> ant = send(HttpRequest.newBuilder(shaper.uri("/anthropic/v1/messages"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")));
            assertEquals(401, ant.statusCode());
            JsonNode antBody = new ObjectMapper().readTree(ant.body());
            assertEquals("authentication_error", antBody.get("error").get("type").asText());

            HttpResponse<String> oai = send(HttpRequest.newBuilder(shaper.uri("/openai/v1/chat/completions"))
                    .header("Authorization", "Bearer wrong-key").POST(HttpRequest.BodyPublishers.ofString("{}")));
            assertEquals(401, oai.statusCode());
            assertEquals("invalid_api_key", new ObjectMapper().readTree(oai.body()).get("error").get("code").asText());
            assertFalse(oai.body().contains("wrong-key"), "a presented key is never echoed");

            assertEquals(401, send(HttpRequest.newBuilder(shaper.uri("/nowhere"))).statusCode(), "unknown mounts are not revealed");
            assertEquals(0, a.requests().size() + b.requests().size());
            assertEquals(0, shaper.server().limiters("anthropic").stream().mapToInt(s -> s.inUse() + s.cooling()).sum(),
                    "no limiter slot was taken");
            // counted when the record is published, just after the answer went out
            RunningShaper.await("401 counted", Duration.ofSeconds(5), () -> shaper.server().counters("anthropic").snapshot().failed() == 1);
            assertEquals(1, shaper.server().counters("anthropic").snapshot().status(4));
            RunningShaper.await("401 logged", Duration.ofSeconds(5), () -> shaper.stdout().contains(
                    "provider=openai method=POST path=/v1/chat/completions status=401"));
            assertTrue(shaper.stdout().lines().filter(l -> l.contains("status=401")).allMatch(l -> l.endsWith("outcome=failed")));
        }
    }

    @Test
    void validKeyIsAdmittedAndStrippedBeforeForwarding() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             EnvShaper shaper = start(a.url(), b.url())) {
            assertEquals(200, send(HttpRequest.newBuilder(shaper.uri("/openai/v1/models")).header("x-api-key", CLIENT_KEY)
                    .header("Authorization", "Bearer sk-real-openai")).statusCode());
            RecordedRequest r = b.onlyRequest();
            assertFalse(r.has("x-api-key"), "the proxy's admission key never travels upstream");
            assertEquals("Bearer sk-real-openai", r.header("Authorization"), "without upstream auth other credentials pass");

            assertEquals(200, send(HttpRequest.newBuilder(shaper.uri("/anthropic/v1/models"))
                    .header("Authorization", "Bearer " + CLIENT_KEY)).statusCode());
            assertEquals("Bearer sk-ant-provider-secret", a.onlyRequest().header("Authorization"), "auto mode: bearer for a non-Anthropic host");
            assertFalse(a.onlyRequest().headers().toString().contains(CLIENT_KEY));
            RunningShaper.await("startup line written", java.time.Duration.ofSeconds(5),
                    () -> shaper.stdout().contains("client keys: env:CK"));
            assertFalse(shaper.stdout().contains(CLIENT_KEY) || shaper.stderr().contains(CLIENT_KEY));
        }
    }

    @Test
    void healthStaysOpen() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             EnvShaper shaper = start(a.url(), b.url())) {
            assertEquals(200, send(HttpRequest.newBuilder(shaper.uri("/__shaper/health"))).statusCode());
        }
    }

    @Test
    void webSocketUpgradeWithoutKeyIsRefused() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             EnvShaper shaper = start(a.url(), b.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET /openai/v1/realtime HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
            assertEquals(401, raw.readHead().status());
            assertEquals(0, b.requests().size());
        }
    }
}
