package shaper.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.limit.LimiterSnapshot;
import shaper.testing.HoldingUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The status page and its event stream on the metrics listener, over real sockets. */
class StatusPageTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(BOUND).build();
    private static final String POST = "POST /v1/messages?key=sk-secret-in-query HTTP/1.1\r\nHost: x\r\nx-api-key: sk-client-secret\r\n"
            + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

    @TempDir
    Path dir;

    private static HttpResponse<String> get(URI uri, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(BOUND);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI metrics(RunningShaper s, String path) {
        return URI.create("http://127.0.0.1:" + s.server().metricsPort().orElseThrow() + path);
    }

    /** The first event of the stream whose document satisfies {@code wanted} (bounded by the request timeout). */
    private static JsonNode event(RunningShaper s, java.util.function.Predicate<JsonNode> wanted, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(metrics(s, "/events")).timeout(BOUND);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpResponse<java.io.InputStream> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
        long deadline = System.nanoTime() + BOUND.toNanos();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null && System.nanoTime() < deadline) {
                if (line.startsWith("data: ")) {
                    JsonNode doc = new ObjectMapper().readTree(line.substring(6));
                    if (wanted.test(doc)) {
                        return doc;
                    }
                }
            }
        }
        throw new AssertionError("no wanted event within " + BOUND);
    }

    @Test
    void pageAndStreamLiveOnTheMetricsListenerOnlyAndShowTheQueueWithoutSecrets() throws Exception {
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-metrics-bind", "127.0.0.1:0", "-limit-all",
                     "-concurrency", "1", "-queue-timeout", "60s");
             RawHttp holder = new RawHttp(shaper.port());
             RawHttp queued = new RawHttp(shaper.port())) {
            HttpResponse<String> page = get(metrics(shaper, "/"));
            assertEquals(200, page.statusCode());
            assertTrue(page.headers().firstValue("content-type").orElse("").startsWith("text/html"));
            assertTrue(page.body().contains("new EventSource(\"events\")"), "the page reads the stream");
            assertFalse(page.body().matches("(?s).*<(script|link)[^>]+(src|href)=\"https?:.*"), "nothing loaded from elsewhere");
            assertEquals(405, HTTP.send(HttpRequest.newBuilder(metrics(shaper, "/")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());

            holder.send(POST);
            RunningShaper.await("holder upstream", BOUND, () -> up.heads() == 1);
            queued.send(POST);
            RunningShaper.await("queued", BOUND, () -> shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum() == 1);
            JsonNode doc = event(shaper, d -> d.path("providers").path(0).path("queued").asInt() == 1);
            JsonNode p = doc.path("providers").path(0);
            assertEquals("default", p.path("name").asText());
            assertEquals(1, p.path("active").asInt());
            assertEquals("/v1/messages", p.path("waiting").path(0).path("path").asText());
            assertEquals(1, p.path("limiters").path(0).path("waiters").asInt());
            assertEquals("closed", p.path("breaker").path("state").asText());
            assertFalse(doc.toString().contains("sk-"), "no key, header or query reaches the page: " + doc);
        }
    }

    /** The queue names who waits: each waiting row its client, and a count per client. */
    @Test
    void theQueueNamesItsClients() throws Exception {
        String team = "POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-team: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-metrics-bind", "127.0.0.1:0", "-limit-all",
                     "-concurrency", "1", "-queue-timeout", "60s", "-client-id", "header:x-team");
             RawHttp holder = new RawHttp(shaper.port());
             RawHttp first = new RawHttp(shaper.port());
             RawHttp second = new RawHttp(shaper.port())) {
            holder.send(team.formatted("ops"));
            RunningShaper.await("holder upstream", BOUND, () -> up.heads() == 1);
            first.send(team.formatted("research"));
            second.send(team.formatted("research"));
            RunningShaper.await("two queued", BOUND, () -> shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum() == 2);
            JsonNode p = event(shaper, d -> d.path("providers").path(0).path("queued").asInt() == 2).path("providers").path(0);
            assertEquals("research", p.path("waiting").path(0).path("client").asText());
            assertEquals(2, p.path("queuedByClient").path("research").asInt(), p.toString());
            assertTrue(p.path("queuedByClient").path("ops").isMissingNode(), "the admitted client waits for nothing: " + p);
        }
    }

    @Test
    void theProxyPortDoesNotServeThePage() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("upstream root");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-metrics-bind", "127.0.0.1:0")) {
            HttpResponse<String> root = get(shaper.uri("/"));
            assertEquals("upstream root", root.body(), "the proxy forwards its own / as any other path");
        }
    }

    @Test
    void withClientKeysThePageAndStreamAskForOne() throws Exception {
        Path key = dir.resolve("key");
        Files.writeString(key, "team-key-1\n");
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-client-key", "file:" + key, "-upstream", up.url(), "-metrics-bind", "127.0.0.1:0")) {
            HttpResponse<String> none = get(metrics(shaper, "/"));
            assertEquals(401, none.statusCode());
            assertTrue(none.headers().firstValue("www-authenticate").orElse("").startsWith("Basic"), "a browser asks for the key");
            assertFalse(none.body().contains("EventSource"));
            assertEquals(401, get(metrics(shaper, "/events"), "x-api-key", "wrong").statusCode());
            String basic = "Basic " + Base64.getEncoder().encodeToString("me:team-key-1".getBytes(StandardCharsets.UTF_8));
            assertEquals(200, get(metrics(shaper, "/"), "authorization", basic).statusCode());
            assertEquals(200, get(metrics(shaper, "/"), "authorization", "Bearer team-key-1").statusCode());
            assertEquals("default", event(shaper, d -> true, "x-api-key", "team-key-1").path("providers").path(0).path("name").asText());
            assertEquals(200, get(metrics(shaper, "/metrics")).statusCode(), "the scrape stays as it was");
        }
    }
}
