package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.retry.ProxyRetryTest.post;
import static shaper.retry.ProxyRetryTest.shaper;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** AR-Proxy's routing extras: stale-reasoning recovery, redirect rewriting, the Responses upstream, the mirror log. */
class GatewayRoutingTest {

    @Test
    void staleReasoningCarriersAreStrippedOnceAndNumbersSurviveExactly() throws Exception {
        String request = "{\"model\":\"m\",\"temperature\":0.1,\"big\":12345678901234567890,\"huge\":1e400,\"one\":1.0,"
                + "\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"t\","
                + "\"signature\":\"ccswitch-openai-reasoning-abc\"},{\"type\":\"text\",\"text\":\"hello\"}]},"
                + "{\"role\":\"user\",\"content\":\"next\"}]}";
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (req.bodyText().contains("ccswitch-openai-reasoning-")) {
                    ex.respond(400, "{\"error\":{\"message\":\"The encrypted content for item rs_1 could not be verified.\","
                            + "\"type\":\"invalid_request_error\",\"code\":\"invalid_encrypted_content\"}}");
                } else {
                    ex.respond(200, "{\"ok\":true}");
                }
            });
             RunningShaper shaper = shaper(up.url())) {
            HttpResponse<String> r = post(shaper, "/v1/messages", request);
            assertEquals(200, r.statusCode());
            assertEquals(2, up.requests().size());
            String replayed = up.requests().get(1).bodyText();
            assertFalse(replayed.contains("ccswitch-openai-reasoning-"));
            assertTrue(replayed.contains("\"temperature\":0.1") && replayed.contains("\"big\":12345678901234567890")
                    && replayed.contains("\"huge\":1e400") && replayed.contains("\"one\":1.0"), replayed);
            assertTrue(replayed.contains("\"text\":\"hello\""));
            assertEquals(Integer.toString(replayed.getBytes(java.nio.charset.StandardCharsets.UTF_8).length),
                    up.requests().get(1).header("Content-Length"));
        }
    }

    @Test
    void staleReasoningRecoveryCanBeTurnedOff() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(400,
                "{\"error\":{\"message\":\"could not be verified\",\"type\":\"invalid_request_error\",\"code\":\"invalid_encrypted_content\"}}"));
             RunningShaper shaper = shaper(up.url(), "-strip-stale-reasoning=false")) {
            String body = "{\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"ccswitch-openai-reasoning-x\"}]}]}";
            assertEquals(400, post(shaper, "/v1/messages", body).statusCode());
            assertEquals(1, up.requests().size());
        }
    }

    @Test
    void sameRouteRedirectsAreRewrittenToTheProxyAndOthersRefused() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                String t = req.target();
                if (t.startsWith("/base/inside")) {
                    ex.respond(307, "", "Location: /base/v1/moved?x=1");
                } else if (t.startsWith("/base/outside")) {
                    ex.respond(302, "", "Location: https://elsewhere.example/steal");
                } else if (t.startsWith("/base/abovebase")) {
                    ex.respond(302, "", "Location: /other/path");
                } else {
                    ex.respond(200, "landed " + t);
                }
            });
             RunningShaper shaper = shaper(up.url() + "/base")) {
            HttpResponse<String> inside = ProxyRetryTest.CLIENT.send(HttpRequest.newBuilder(shaper.uri("/inside")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(307, inside.statusCode());
            assertEquals("/v1/moved?x=1", inside.headers().firstValue("location").orElseThrow());
            for (String refused : new String[] {"/outside", "/abovebase"}) {
                HttpResponse<String> r = ProxyRetryTest.CLIENT.send(HttpRequest.newBuilder(shaper.uri(refused)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(502, r.statusCode(), refused);
                assertTrue(r.headers().firstValue("location").isEmpty());
            }
        }
    }

    @Test
    void rewrittenRedirectsKeepTheProvidersMount() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(308, "", "Location: /v1/elsewhere"));
             ScriptedUpstream other = ScriptedUpstream.ok("other");
             RunningShaper shaper = RunningShaper.start("--provider=a", "-upstream", up.url(), "-prefix", "/anthropic",
                     "--provider=b", "-upstream", other.url(), "-prefix", "/openai")) {
            HttpResponse<String> r = ProxyRetryTest.CLIENT.send(HttpRequest.newBuilder(shaper.uri("/anthropic/v1/old")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(308, r.statusCode());
            assertEquals("/anthropic/v1/elsewhere", r.headers().firstValue("location").orElseThrow());
        }
    }

    @Test
    void responsesAndModelPathsGoToTheResponsesUpstream() throws Exception {
        try (ScriptedUpstream main = ScriptedUpstream.ok("main");
             ScriptedUpstream responses = ScriptedUpstream.ok("responses");
             RunningShaper shaper = shaper(main.url(), "-responses-upstream", responses.url() + "/bridge")) {
            for (String path : new String[] {"/v1/responses", "/v1/responses/resp_1?stream=true", "/v1/models", "/v1/models/gpt", "/api/pricing"}) {
                assertEquals("responses", post(shaper, path, "{}").body(), path);
            }
            for (String path : new String[] {"/v1/messages", "/v1/chat/completions", "/v1/responsesx", "/v2/models"}) {
                assertEquals("main", post(shaper, path, "{}").body(), path);
            }
            assertEquals("/bridge/v1/responses/resp_1?stream=true",
                    responses.requests().stream().map(RecordedRequest::target).filter(t -> t.contains("resp_1")).findFirst().orElseThrow());
        }
    }

    @Test
    void logFileMirrorsTheExchangeLines() throws Exception {
        Path dir = Files.createTempDirectory("shaper-log");
        Path file = dir.resolve("mirror.log");
        try (ScriptedUpstream up = ScriptedUpstream.ok("x");
             RunningShaper shaper = shaper(up.url(), "-log-file", file.toString())) {
            post(shaper, "/v1/messages?secret=1", "{}");
            RunningShaper.await("mirrored", Duration.ofSeconds(5), () -> {
                try {
                    return Files.exists(file) && Files.readString(file).contains("path=/v1/messages status=200");
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            assertFalse(Files.readString(file).contains("secret=1"));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }
}
