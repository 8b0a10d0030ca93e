package shaper.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.TestNet;
import shaper.testing.ScriptedUpstream;

/**
 * A known secret, a burst of traffic with every kind of error, and a look at every place the
 * secret must not appear: log lines, response bodies, the process's argv. And a client's own
 * OpenAI key never reaches the Anthropic upstream.
 */
class SecretHygieneTest {
    private static final String SECRET = "sk-ant-hygiene-SECRET-7f3a9c";
    private static final String CLIENT_KEY = "client-key-hygiene-41b2";
    private static final String CLIENT_OPENAI_KEY = "sk-openai-client-9d8e";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Test
    void secretAppearsInNoLogLineAndNoResponseBodyUnderABurstWithErrors() throws Exception {
        int dead = TestNet.freePort();
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> {
                if (req.target().startsWith("/v1/fail")) {
                    ex.respond(500, "{\"error\":\"upstream exploded\"}", "Content-Type: application/json");
                } else {
                    ex.respond(200, "{\"ok\":true}", "Content-Type: application/json");
                }
            });
             EnvShaper shaper = EnvShaper.start(Map.of("SHAPER_TEST_KEY", SECRET, "CK", CLIENT_KEY),
                     "-bind", "127.0.0.1:0", "-client-key", "env:CK",
                     "--provider=anthropic", "-upstream", a.url(), "-prefix", "/anthropic",
                     "-auth-source", "env:SHAPER_TEST_KEY", "-auth-mode", "x-api-key", "-release-cooldown", "0", "-failure-hold", "0",
                     "-retry", "1", "-retry-wait-min", "0", "-retry-wait-max", "10ms", "-retry-min-delay", "0", "-circuit-breaker=false",
                     "--provider=down", "-upstream", "http://127.0.0.1:" + dead + "/base?key=UPSTREAMQUERYSECRET", "-prefix", "/down",
                     "-auth-source", "env:SHAPER_TEST_KEY", "-release-cooldown", "0", "-failure-hold", "0",
                     "-retry", "1", "-retry-wait-min", "0", "-retry-wait-max", "10ms", "-retry-min-delay", "0", "-circuit-breaker=false")) {
            List<HttpRequest> burst = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                burst.add(request(shaper, "/anthropic/v1/messages", CLIENT_KEY));
                burst.add(request(shaper, "/anthropic/v1/fail?key=CLIENTQUERYSECRET", CLIENT_KEY));
                burst.add(request(shaper, "/down/v1/chat/completions?key=CLIENTQUERYSECRET", CLIENT_KEY));
                burst.add(request(shaper, "/anthropic/v1/messages", null));
                burst.add(request(shaper, "/anthropic/v1/messages", SECRET));
                burst.add(request(shaper, "/down/v1/chat/completions", SECRET));
            }
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (HttpRequest r : burst) {
                calls.add(CLIENT.sendAsync(r, HttpResponse.BodyHandlers.ofString()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                HttpResponse<String> r = c.get(20, TimeUnit.SECONDS);
                statuses.add(r.statusCode());
                assertFalse(r.body().contains(SECRET), "response body of " + r.uri() + ": " + r.body());
                assertFalse(r.headers().map().toString().contains(SECRET), "response headers of " + r.uri());
            }
            assertEquals(List.of(200, 500, 502, 401, 401, 401), statuses.subList(0, 6));
            RunningShaper.await("every exchange logged", Duration.ofSeconds(10),
                    () -> shaper.stdout().lines().filter(l -> l.contains(" exchange ")).count() == burst.size());

            String logs = shaper.stdout() + shaper.stderr();
            assertFalse(logs.contains(SECRET), logs);
            assertFalse(logs.contains(CLIENT_KEY), "client keys are never logged either");
            assertFalse(logs.contains("UPSTREAMQUERYSECRET") || logs.contains("CLIENTQUERYSECRET"), "URL queries are never logged: " + logs);
            assertTrue(logs.contains("upstream error provider=down"), "the transport errors were logged: " + logs);
            assertTrue(logs.contains("env:SHAPER_TEST_KEY"), "only the reference is shown");

            for (RecordedRequest r : a.requests()) {
                assertEquals(List.of(SECRET), r.values("x-api-key"), "the configured secret is what the upstream sees");
                assertFalse(r.headers().toString().contains(CLIENT_OPENAI_KEY), "the client's OpenAI key never reaches Anthropic");
                assertFalse(r.headers().toString().contains(CLIENT_KEY), "the admission key never travels upstream");
            }
            assertTrue(a.requests().size() > 8, "the 500s were retried: " + a.requests().size());
        }
    }

    @Test
    void secretIsNotInTheProcessArgvOfTheScript() throws Exception {
        Path root = ProjectRoot.find();
        Path log = Files.createTempFile("shaper-secret", ".log");
        int port = TestNet.freePort();
        try (ScriptedUpstream up = ScriptedUpstream.ok("through")) {
            ProcessBuilder pb = new ProcessBuilder(List.of("./jbang", "Shaper.java", "-bind", "127.0.0.1:" + port,
                    "--provider=anthropic", "-upstream", up.url(), "-prefix", "/anthropic",
                    "-auth-source", "env:SHAPER_TEST_KEY", "-auth-mode", "x-api-key"))
                    .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("SHAPER_TEST_KEY", SECRET);
            Process p = pb.start();
            try {
                URI health = URI.create("http://127.0.0.1:" + port + "/__shaper/health");
                RunningShaper.await("shaper health", Duration.ofSeconds(180), () -> p.isAlive() && TestNet.ok(health));
                HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/anthropic/v1/messages"))
                        .header("Authorization", "Bearer " + CLIENT_OPENAI_KEY).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals("through", r.body());
                assertEquals(SECRET, up.onlyRequest().header("X-Api-Key"));
                assertFalse(up.onlyRequest().has("Authorization"));

                String cmdline = Files.readString(Path.of("/proc/" + p.pid() + "/cmdline"), StandardCharsets.ISO_8859_1).replace('\0', ' ');
                assertTrue(cmdline.contains("env:SHAPER_TEST_KEY"), "this is the shaper's JVM: " + cmdline);
                assertFalse(cmdline.contains(SECRET), "the secret is not in argv");
                RunningShaper.await("exchange logged", Duration.ofSeconds(5), () -> TestNet.read(log).contains("path=/v1/messages status=200"));
                assertFalse(TestNet.read(log).contains(SECRET), TestNet.read(log));
            } finally {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
                Files.deleteIfExists(log);
            }
        }
    }

    private static HttpRequest request(EnvShaper shaper, String path, String clientKey) {
        HttpRequest.Builder b = HttpRequest.newBuilder(shaper.uri(path)).timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + CLIENT_OPENAI_KEY)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"x\"}"));
        if (clientKey != null) {
            b.header("x-api-key", clientKey);
        }
        return b.build();
    }



}
