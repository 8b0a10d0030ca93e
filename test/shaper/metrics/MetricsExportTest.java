package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.ManualTimeSource;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** /metrics during a mixed load passes promtool and its values match the traffic sent. */
class MetricsExportTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String P = "provider";
    private static final String VERSION = shaper.Version.VERSION;
    private static final java.util.Set<Series> TOKEN_SERIES = java.util.EnumSet.of(Series.TOKENS, Series.MODEL_REQUESTS,
            Series.UPSTREAM_RATELIMIT_LIMIT, Series.UPSTREAM_RATELIMIT_REMAINING, Series.UPSTREAM_RATELIMIT_RESET_SECONDS,
            Series.BUDGET_LEVEL, Series.BUDGET_WAITS);

    private static HttpResponse<String> send(RunningShaper shaper, String method, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).method(method,
                method.equals("POST") ? HttpRequest.BodyPublishers.ofString("{}") : HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static CompletableFuture<HttpResponse<String>> sendAsync(RunningShaper shaper, String method, String path) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return send(shaper, method, path);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    @Test
    void mixedLoadValuesMatchTheTrafficSent() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch streamClientGone = new CountDownLatch(1);
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                String path = req.target();
                if (path.startsWith("/v1/messages")) {
                    held.countDown();
                    gate.await(20, TimeUnit.SECONDS);
                    ex.respond(200, "{\"done\":true}", "Content-Type: application/json");
                } else if (path.startsWith("/v1/fail")) {
                    ex.respond(500, "{\"error\":\"boom\"}", "Content-Type: application/json");
                } else if (path.startsWith("/v1/missing")) {
                    ex.respond(404, "nope");
                } else if (path.startsWith("/v1/stream")) {
                    ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                    ex.chunk("data: one\n\n");
                    streamClientGone.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < 200; i++) { // bounded: the writes fail once the proxy dropped the client
                        ex.chunk("data: more\n\n");
                        Thread.sleep(5); // the upstream's pacing, not synchronisation
                    }
                    ex.endChunks();
                } else {
                    ex.respond(200, "ok");
                }
            });
             RunningShaper shaper = RunningShaper.start(time, "-metrics-bind", "127.0.0.1:0", "-upstream", up.url(),
                     "-limit", "POST /v1/messages:1", "-queue-depth", "1", "-queue-timeout", "1500ms", "-retry", "0",
                     "-release-cooldown", "0")) {
            Scrape idle = Scrape.of(shaper);
            assertEquals(0, idle.value("shaper_queued", P, "default"));
            assertFalse(idle.has("shaper_route_queued"), "no waiters, no per-route series");
            assertEquals(1, idle.value("shaper_build_info", P, "default", "version", VERSION));
            assertEquals(0, idle.value("shaper_breaker_state", P, "default"));

            CompletableFuture<HttpResponse<String>> admitted = sendAsync(shaper, "POST", "/v1/messages");
            assertTrue(held.await(10, TimeUnit.SECONDS));
            CompletableFuture<HttpResponse<String>> queued = sendAsync(shaper, "POST", "/v1/messages");
            RunningShaper.await("one waiter", BOUND, () -> shaper.server().journal("default").queued().size() == 1);
            Scrape waiting = Scrape.of(shaper);
            assertEquals(1, waiting.value("shaper_active", P, "default"));
            assertEquals(1, waiting.value("shaper_queued", P, "default"));
            assertEquals(1, waiting.value("shaper_route_queued", P, "default", "method", "POST", "path", "/v1/messages"));
            assertTrue(waiting.value("shaper_route_oldest_queued_seconds", P, "default", "method", "POST", "path", "/v1/messages") >= 0);
            assertTrue(waiting.value("shaper_oldest_queued_seconds", P, "default") >= 0);
            assertEquals(429, send(shaper, "POST", "/v1/messages").statusCode(), "-queue-depth 1 is full");
            RunningShaper.await("the waiter's alarm set", BOUND, () -> time.hasTaskDueIn(Duration.ofMillis(1500)));
            time.advance(Duration.ofMillis(1500));
            assertEquals(504, queued.get(10, TimeUnit.SECONDS).statusCode(), "the waiter times out");
            gate.countDown();
            assertEquals(200, admitted.get(10, TimeUnit.SECONDS).statusCode());

            for (int i = 0; i < 3; i++) {
                assertEquals(200, send(shaper, "GET", "/v1/ok").statusCode());
            }
            assertEquals(500, send(shaper, "GET", "/v1/fail").statusCode());
            assertEquals(404, send(shaper, "GET", "/v1/missing").statusCode());
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/stream HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                assertEquals("data: one\n\n", raw.readChunk());
                raw.socket().setSoLinger(true, 0);
            }
            streamClientGone.countDown();
            // 9 exchanges: admitted 200, 504, 429, 3 × 200, 500, 404, aborted 200 stream
            RunningShaper.await("all nine recorded", BOUND, () -> shaper.server().journal("default").recent().size() == 9
                    && shaper.server().journal("default").inFlight().isEmpty());

            Scrape after = Scrape.of(shaper);
            assertEquals(5, after.value("shaper_requests_total", P, "default", "status", "2xx"), "the aborted 200 counts in 2xx");
            assertEquals(2, after.value("shaper_requests_total", P, "default", "status", "4xx"));
            assertEquals(2, after.value("shaper_requests_total", P, "default", "status", "5xx"));
            assertEquals(0, after.value("shaper_requests_total", P, "default", "status", "1xx"));
            assertEquals(1, after.value("shaper_clean_proxied_total", P, "default"), "only the admitted request; never the 504 or 429");
            assertEquals(5, after.value("shaper_clean_passthrough_total", P, "default"), "3 ok, the relayed 500 and 404");
            assertEquals(1, after.value("shaper_aborted_total", P, "default"));
            assertEquals(1, after.value("shaper_queue_rejected_total", P, "default"));
            assertEquals(0, after.value("shaper_circuit_rejected_total", P, "default"));
            assertEquals(0, after.value("shaper_queued", P, "default"));
            assertEquals(0, after.value("shaper_active", P, "default"));
            assertEquals(0.0, after.value("shaper_oldest_queued_seconds", P, "default"));
            assertFalse(after.has("shaper_route_queued"), "the waiter left, its series went");
            assertFalse(after.has("shaper_route_oldest_queued_seconds"));
            assertEquals(9, after.value("shaper_exchange_duration_seconds_count", P, "default"));
            assertEquals(3, after.value("shaper_queue_wait_seconds_count", P, "default"), "only the three that asked a limiter");
            assertTrue(after.value("shaper_queue_wait_seconds_sum", P, "default") >= 1.5, "the 504 waited 1.5 s");
            assertTrue(after.value("shaper_proxy_added_seconds_count", P, "default") >= 6);
            assertTrue(after.value("shaper_time_to_first_byte_seconds_count", P, "default") >= 8);
        }
    }

    @Test
    void aRequestWaitingOutARetryBackoffIsARetryInFlight() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(500, "{\"error\":\"boom\"}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start(time, "-metrics-bind", "127.0.0.1:0", "-upstream", up.url(), "-retry", "1",
                     "-retry-wait-min", "1500ms", "-retry-wait-max", "1500ms", "-circuit-breaker=false")) {
            CompletableFuture<HttpResponse<String>> retried = sendAsync(shaper, "POST", "/v1/messages");
            RunningShaper.await("in its backoff", BOUND, () -> shaper.server().journal("default").retriesInFlight() == 1
                    && time.hasTaskDueIn(Duration.ofMillis(1500)));
            Scrape during = Scrape.of(shaper);
            assertEquals(1, during.value("shaper_retries_in_flight", P, "default"));
            assertEquals(1, during.value("shaper_active", P, "default"));
            time.advance(Duration.ofMillis(1500));
            assertEquals(500, retried.get(10, TimeUnit.SECONDS).statusCode());
            RunningShaper.await("recorded", BOUND, () -> shaper.server().journal("default").recent().size() == 1);
            Scrape after = Scrape.of(shaper);
            assertEquals(0, after.value("shaper_retries_in_flight", P, "default"));
            assertEquals(1, after.value("shaper_requests_total", P, "default", "status", "5xx"), "two attempts, one exchange");
            assertEquals(2, shaper.server().journal("default").recent().getFirst().attempts());
        }
    }

    @Test
    void breakerOffOmitsItsStateAndEveryFamilyIsOneBlockAcrossProviders() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             RunningShaper shaper = RunningShaper.start("-metrics-bind", "127.0.0.1:0",
                     "--provider=alpha", "-upstream", a.url(), "-prefix", "/a", "-circuit-breaker=false",
                     "--provider=beta", "-upstream", b.url(), "-prefix", "/b")) {
            assertEquals(200, send(shaper, "GET", "/a/v1/x").statusCode());
            assertEquals(200, send(shaper, "GET", "/b/v1/x").statusCode());
            RunningShaper.await("both recorded", BOUND, () -> shaper.server().journal("alpha").recent().size() == 1
                    && shaper.server().journal("beta").recent().size() == 1);
            Scrape s = Scrape.of(shaper);
            assertEquals(s.blocks.size(), s.blocks.stream().distinct().count(), "a family split into blocks: " + s.blocks);
            assertTrue(s.samples.keySet().stream().noneMatch(k -> k.startsWith("shaper_breaker_state{provider=\"alpha\"")));
            assertEquals(0, s.value("shaper_breaker_state", P, "beta"));
            assertEquals(1, s.value("shaper_clean_passthrough_total", P, "alpha"));
            assertEquals(1, s.value("shaper_clean_passthrough_total", P, "beta"));
            for (Series series : Series.values()) {
                if (series != Series.ROUTE_QUEUED && series != Series.ROUTE_OLDEST_QUEUED_SECONDS
                        && series != Series.LIMITER_BACKEND_UP && series != Series.LIMITER_BACKEND_TRANSITIONS
                        && series != Series.CLUSTER_QUEUED // cluster mode only
                        && series != Series.CLASS_QUEUED && series != Series.CLASS_QUEUE_WAIT_SECONDS // priority classes only
                        && series != Series.ROUTE_REQUESTS && series != Series.FALLBACKS // the routed mount only
                        && !series.name().startsWith("CLIENT_") // only once an exchange of this provider finished
                        && !TOKEN_SERIES.contains(series)) { // only once answers carried usage or rate-limit headers, or with budgets
                    assertTrue(s.has(series.metricName()), series.metricName() + " exported");
                }
            }
        }
    }
}
