package shaper.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.config.ConfigException;
import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.ScriptedUpstream;

/** Per-provider upstream credentials: strip, then attach exactly one; never across a provider boundary. */
class ProviderAuthTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final String ANT_SECRET = "sk-ant-provider-secret-0001";
    private static final String OAI_SECRET = "sk-oai-provider-secret-0002";
    private static final Map<String, String> ENV = Map.of("ANT_KEY", ANT_SECRET, "OAI_KEY", OAI_SECRET);

    private static EnvShaper twoWithAuth(String upA, String upB) {
        return EnvShaper.start(ENV, "-bind", "127.0.0.1:0",
                "--provider=anthropic", "-upstream", upA, "-prefix", "/anthropic", "-auth-source", "env:ANT_KEY", "-auth-mode", "x-api-key",
                "--provider=openai", "-upstream", upB, "-prefix", "/openai", "-auth-source", "env:OAI_KEY");
    }

    private static HttpRequest.Builder withClientCredentials(EnvShaper shaper, String path) {
        return HttpRequest.newBuilder(shaper.uri(path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer sk-openai-client-key")
                .header("X-Api-Key", "sk-ant-client-key")
                .header("anthropic-beta", "tools-2024")
                .header("anthropic-version", "2023-01-01")
                .header("X-Amz-Security-Token", "amz")
                .header("x-goog-api-key", "goog")
                .header("Cookie", "session=abc")
                .header("X-Custom", "kept");
    }

    @Test
    void clientsOpenAiKeyNeverReachesTheAnthropicMount() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             EnvShaper shaper = twoWithAuth(a.url(), b.url())) {
            CLIENT.send(withClientCredentials(shaper, "/anthropic/v1/messages").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            CLIENT.send(withClientCredentials(shaper, "/openai/v1/chat/completions").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());

            RecordedRequest ant = a.onlyRequest();
            assertEquals(List.of(ANT_SECRET), ant.values("X-Api-Key"), "exactly one credential: the provider's");
            assertEquals(List.of("2023-06-01"), ant.values("Anthropic-Version"));
            for (String gone : new String[] {"Authorization", "anthropic-beta", "X-Amz-Security-Token", "x-goog-api-key"}) {
                assertFalse(ant.has(gone), gone);
            }
            assertFalse(new String(ant.bodyText() + ant.headers()).contains("sk-openai-client-key"));
            assertEquals("session=abc", ant.header("Cookie"), "cookies are forwarded verbatim");
            assertEquals("kept", ant.header("X-Custom"));

            RecordedRequest oai = b.onlyRequest();
            assertEquals(List.of("Bearer " + OAI_SECRET), oai.values("Authorization"));
            assertFalse(oai.has("X-Api-Key") || oai.has("anthropic-version") || oai.has("anthropic-beta"));
            assertFalse(oai.headers().toString().contains(ANT_SECRET), "one provider's secret never reaches another");
        }
    }

    @Test
    void clientConnectionListCannotStripTheInjectedCredential() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             EnvShaper shaper = twoWithAuth(a.url(), b.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET /anthropic/v1/models HTTP/1.1\r\nHost: x\r\nConnection: X-Api-Key, Anthropic-Version, Authorization\r\n"
                    + "X-Api-Key: sk-ant-client-key\r\n\r\n");
            assertEquals(200, raw.readHead().status());
            assertEquals(List.of(ANT_SECRET), a.onlyRequest().values("x-api-key"));
            assertEquals(List.of("2023-06-01"), a.onlyRequest().values("anthropic-version"));
        }
    }

    @Test
    void providerWithoutAuthForwardsVerbatimAndTheStartupSaysSo() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             EnvShaper shaper = EnvShaper.start(ENV, "-bind", "127.0.0.1:0",
                     "--provider=anthropic", "-upstream", a.url(), "-prefix", "/anthropic", "-auth-source", "env:ANT_KEY",
                     "--provider=open", "-upstream", b.url(), "-prefix", "/open")) {
            CLIENT.send(withClientCredentials(shaper, "/open/v1/models").build(), HttpResponse.BodyHandlers.ofString());
            RecordedRequest r = b.onlyRequest();
            assertEquals("Bearer sk-openai-client-key", r.header("Authorization"));
            assertEquals("tools-2024", r.header("anthropic-beta"));
            assertTrue(shaper.stderr().contains("1 of 2 providers configured without upstream auth"), shaper.stderr());
            // startup lines go through the asynchronous log writer: wait for them, bounded
            RunningShaper.await("startup auth lines", java.time.Duration.ofSeconds(5),
                    () -> shaper.stdout().contains("provider=open upstream auth disabled"));
            assertTrue(shaper.stdout().contains("provider=anthropic upstream auth bearer (auto) from env:ANT_KEY"), shaper.stdout());
        }
    }

    @Test
    void stripOnlyRemovesClientCredentialsAndAttachesNothing() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             EnvShaper shaper = EnvShaper.start(Map.of(), "-bind", "127.0.0.1:0",
                     "--provider=a", "-upstream", a.url(), "-auth-source", "none")) {
            CLIENT.send(withClientCredentials(shaper, "/v1/models").build(), HttpResponse.BodyHandlers.ofString());
            RecordedRequest r = a.onlyRequest();
            assertFalse(r.has("Authorization") || r.has("X-Api-Key") || r.has("anthropic-version"), r.headers().toString());
            assertEquals("session=abc", r.header("Cookie"));
        }
    }

    @Test
    void unsetOrBlankSecretFailsStartupNamingTheReferenceNeverTheValue() {
        ConfigException unset = assertThrows(ConfigException.class, () -> EnvShaper.start(Map.of(), "-bind", "127.0.0.1:0",
                "--provider=a", "-upstream", "http://127.0.0.1:1", "-auth-source", "env:NOT_SET_ANYWHERE"));
        assertEquals("provider \"a\": -auth-source env:NOT_SET_ANYWHERE: environment variable NOT_SET_ANYWHERE is not set", unset.getMessage());
        ConfigException blank = assertThrows(ConfigException.class, () -> EnvShaper.start(Map.of("K", "  \t"), "-bind", "127.0.0.1:0",
                "-upstream", "http://127.0.0.1:1", "-auth-source", "env:K"));
        assertTrue(blank.getMessage().contains("env:K") && blank.getMessage().contains("blank"), blank.getMessage());
        ConfigException twoLines = assertThrows(ConfigException.class, () -> EnvShaper.start(Map.of("K", "line-one\nline-two"),
                "-bind", "127.0.0.1:0", "-upstream", "http://127.0.0.1:1", "-auth-source", "env:K"));
        assertFalse(twoLines.getMessage().contains("line-one"), twoLines.getMessage());
    }
}
