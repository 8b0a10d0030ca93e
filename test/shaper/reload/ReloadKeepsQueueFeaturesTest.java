package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.observe.ExchangeRecord;
import shaper.ratelimit.RateLimitKind;
import shaper.settings.ProviderConfig;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A reload that changes a provider's {@code -limiter-backend} settings keeps the running backend (it
 * cannot change live) and nothing else of the running provider: the {@code -rpm} budget, the priority
 * classes and the adaptive limit the file still asks for stay in force. Seen in the provider the proxy
 * runs, in what an exchange pays from the budget, in the class it is recorded in and exported under on
 * {@code /metrics}, and in a limiter the reload creates: it is adaptive, so an upstream 429 lowers its
 * limit there (a limiter the provider already had keeps its own kind across a reload, so it would not tell).
 */
class ReloadKeepsQueueFeaturesTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String BODY = "{\"model\":\"m\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @TempDir
    Path dir;

    /** @param changes the lines that differ between the started and the reloaded file */
    private static String file(String upstream, String changes) {
        return "upstream: " + upstream + "\nlimit-all: true\nconcurrency: 4\nrelease-cooldown: 0\nretry: 0\ncircuit-breaker: false\n"
                + "rpm: 6\npriority-class: [interactive=4, background=1]\nadaptive-concurrency: true\n" + changes;
    }

    private static HttpResponse<String> send(LiveShaper s, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(s.uri(path)).timeout(BOUND).header("X-Shaper-Priority", "background")
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> metrics(LiveShaper s, String family) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + s.server.metricsPort().orElseThrow() + "/metrics");
        String text = CLIENT.send(HttpRequest.newBuilder(uri).timeout(BOUND).build(), HttpResponse.BodyHandlers.ofString()).body();
        return text.lines().filter(l -> l.startsWith(family + "{")).toList();
    }

    /** The limit in force of one limiter of the provider, as {@code /metrics} exports it. */
    private static double limit(LiveShaper s, String limiter) throws Exception {
        List<String> lines = metrics(s, "shaper_limit").stream().filter(l -> l.contains("limiter=\"" + limiter + "\"")).toList();
        assertEquals(1, lines.size(), "one limiter " + limiter + ": " + metrics(s, "shaper_limit"));
        String line = lines.get(0);
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    @Test
    void changingLimiterBackendSettingsKeepsTheBudgetThePriorityClassesAndTheAdaptiveLimit() throws Exception {
        AtomicInteger answered = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 // the third exchange is refused as overloaded: an adaptive limit falls, a fixed one does not
                 if (answered.incrementAndGet() == 3) {
                     ex.respond(429, "{\"error\":\"slow down\"}", "Content-Type: application/json");
                 } else {
                     ex.respond(200, "ok");
                 }
             });
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"), file(up.url(), "limiter-lease: 15s\n"),
                     "-metrics-bind", "127.0.0.1:0")) {
            ProviderConfig started = s.server.provider("default");
            assertEquals(200, send(s, "/v1/before").statusCode());

            // an unreachable backend: the reload keeps the running in-process limiters, so it is never dialled
            assertTrue(s.reloadWith(file(up.url(),
                    "limiter-backend: redis://127.0.0.1:9\nlimiter-lease: 20s\nlimit: POST /v1/routed:4\n")), s.log());
            s.awaitLog("-limiter-backend and its -limiter-* settings of provider default");

            ProviderConfig running = s.server.provider("default");
            assertEquals(started.cluster(), running.cluster(), "the running backend is kept");
            assertEquals(started.budget(), running.budget(), "-rpm stays in force");
            assertEquals(started.priority(), running.priority(), "the priority classes stay in force");
            assertEquals(started.adaptive(), running.adaptive(), "-adaptive-concurrency stays in force");

            assertEquals(200, send(s, "/v1/after").statusCode());
            RunningShaper.await("the exchange after the reload recorded", BOUND,
                    () -> s.server.journal("default").recent().stream().anyMatch(r -> r.path().equals("/v1/after")));
            ExchangeRecord after = s.server.journal("default").recent().stream().filter(r -> r.path().equals("/v1/after"))
                    .findFirst().orElseThrow();
            assertEquals("background", after.priorityClass(), "the class the header names is still declared");
            double requestsLeft = s.server.assembly("default").tokens().budget().orElseThrow(() -> new AssertionError("no budget in force"))
                    .levels().get(RateLimitKind.REQUESTS);
            assertTrue(requestsLeft < 6, "the exchanges were paid from the -rpm budget: " + requestsLeft);
            assertTrue(metrics(s, "shaper_class_queued").stream().anyMatch(l -> l.contains("class=\"background\"")),
                    "the classes are exported: " + metrics(s, "shaper_class_queued"));

            assertEquals(4, limit(s, "POST /v1/routed"), 0.0, "the reload's new route limiter starts at its ceiling");
            assertEquals(429, send(s, "/v1/routed").statusCode());
            RunningShaper.await("the new limiter's adaptive limit falls after the upstream's 429", BOUND, () -> {
                try {
                    return limit(s, "POST /v1/routed") < 4;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }
}
