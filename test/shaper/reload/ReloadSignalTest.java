package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.ProjectRoot;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TestNet;

/**
 * The real script: {@code -config-watch} reloads on an editor's save by rename, {@code SIGHUP} reloads,
 * a bad file is refused; health and {@code /metrics} show the generation and the counts.
 */
class ReloadSignalTest {
    private static final Duration START_BOUND = Duration.ofSeconds(180);
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static String file(String a, String b) {
        String out = "providers:\n  - name: a\n    upstream: " + a + "\n    prefix: /a\n";
        return b == null ? out : out + "  - name: b\n    upstream: " + b + "\n    prefix: /b\n";
    }

    private static void save(Path file, String yaml) throws Exception {
        Path tmp = Files.writeString(file.resolveSibling(".shaper.yaml.swp"), yaml);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String get(URI uri) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).timeout(BOUND).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    @Test
    void watchAndHangupReload() throws Exception {
        int port = TestNet.freePort();
        int metricsPort = TestNet.freePort();
        Path file = dir.resolve("shaper.yaml");
        Path log = dir.resolve("shaper.log");
        try (ScriptedUpstream a = ScriptedUpstream.ok("a"); ScriptedUpstream b = ScriptedUpstream.ok("b")) {
            Files.writeString(file, file(a.url(), null));
            Process p = new ProcessBuilder(List.of("./jbang", "Shaper.java", "-config", file.toString(), "-config-watch",
                    "-bind", "127.0.0.1:" + port, "-metrics-bind", "127.0.0.1:" + metricsPort))
                    .directory(ProjectRoot.find().toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                URI health = URI.create("http://127.0.0.1:" + port + "/__shaper/health");
                URI metrics = URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
                RunningShaper.await("shaper health", START_BOUND, () -> p.isAlive() && TestNet.ok(health));
                assertTrue(get(health).contains("\"config_generation\":1"), get(health));

                save(file, file(a.url(), b.url()));
                RunningShaper.await("the watch applies the saved file", BOUND, () -> get(health).contains("\"config_generation\":2"));
                assertEquals("b", get(URI.create("http://127.0.0.1:" + port + "/b/x")));

                Files.writeString(file, file(a.url(), b.url()) + "    concurency: 3\n");
                RunningShaper.await("the bad file is refused", BOUND, () -> TestNet.read(log).contains("config reload failed"));
                assertTrue(TestNet.read(log).contains(file + ":8:5: unknown key"), TestNet.read(log));

                Files.writeString(file.resolveSibling("other.yaml"), "x"); // not the watched name: nothing happens
                Files.writeString(file, file(a.url(), null));
                RunningShaper.await("the watch applies the fixed file", BOUND, () -> get(health).contains("\"config_generation\":3"));
                new ProcessBuilder("kill", "-HUP", Long.toString(p.pid())).start().waitFor(10, TimeUnit.SECONDS);
                RunningShaper.await("SIGHUP reloads the same file", BOUND, () -> get(health).contains("\"config_generation\":4"));

                String scrape = get(metrics);
                assertTrue(scrape.contains("shaper_config_reloads_total{result=\"ok\"} 3"), scrape);
                assertTrue(scrape.contains("shaper_config_reloads_total{result=\"error\"} 1"), scrape);
                assertTrue(scrape.contains("shaper_config_generation 4"), scrape);
                assertTrue(get(health).contains("\"config_sha256\":\""), get(health));
                assertTrue(p.isAlive(), "SIGHUP does not stop the proxy");
            } finally {
                p.destroy();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }
}
