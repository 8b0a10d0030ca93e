package shaper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.TestNet;
import shaper.testing.ScriptedUpstream;

/** The README's run command, as a user types it: ./jbang Shaper.java -upstream URL. */
class ShaperScriptTest {
    private static final Duration START_BOUND = Duration.ofSeconds(180);

    @Test
    void readmeRunCommandProxiesToALocalServer() throws Exception {
        Path root = ProjectRoot.find();
        Path log = Files.createTempFile("shaper-script", ".log");
        int port = TestNet.freePort();
        try (ScriptedUpstream up = ScriptedUpstream.ok("hello through the shaper")) {
            Process p = new ProcessBuilder(List.of("./jbang", "Shaper.java", "-upstream", up.url(), "-bind", "127.0.0.1:" + port))
                    .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                HttpClient client = HttpClient.newHttpClient();
                URI health = URI.create("http://127.0.0.1:" + port + "/__shaper/health");
                RunningShaper.await("shaper health", START_BOUND, () -> p.isAlive() && TestNet.ok(health));
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/hi")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertEquals("hello through the shaper", r.body());
                assertTrue(client.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString()).body()
                        .contains("\"pid\":" + p.pid()), "the JVM serving requests is the process we started");
                RunningShaper.await("exchange logged", Duration.ofSeconds(5),
                        () -> TestNet.read(log).contains("method=GET path=/v1/hi status=200"));
                assertTrue(TestNet.read(log).contains("listening on 127.0.0.1:" + port), TestNet.read(log));
            } finally {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
                Files.deleteIfExists(log);
            }
        }
    }

    @Test
    void usageErrorsExitTwoThroughTheScript() throws Exception {
        Process p = new ProcessBuilder(List.of("./jbang", "Shaper.java", "-upstream", "http://127.0.0.1:1", "-bogus"))
                .directory(ProjectRoot.find().toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(START_BOUND.toSeconds(), TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("-bogus"), out);
    }



}
