package shaper.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.ManualTimeSource;
import shaper.testing.EchoWebSocketUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TestNet;
import shaper.testing.TextWebSocket;

/** Every exit path of an exchange (clean, aborted, failed, upgraded) ends in exactly one record. */
class ExitPathRecordTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static HttpResponse<String> post(RunningShaper shaper, String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).header("X-Trace", "t-1")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void cleanExchangeRecordsTimingsHeadersAndPreviews() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "{\"ok\":true}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all")) {
            assertEquals(200, post(shaper, "/v1/messages?beta=1", "{\"q\":1}").statusCode());
            ExchangeRecord r = Records.exactly(shaper, "default", 1).getFirst();
            assertEquals(Outcome.CLEAN, r.outcome());
            assertEquals(EndReason.COMPLETED, r.reason());
            assertEquals(Provenance.NONE, r.provenance());
            assertEquals(RouteKind.LIMITED, r.route());
            assertEquals(1, r.attempts());
            assertEquals("/v1/messages?beta=1", r.url());
            assertEquals("json", r.type());
            assertEquals("{\"q\":1}", r.requestBody().text());
            assertEquals("{\"ok\":true}", r.responseBody().text());
            assertEquals(11, r.responseBytes());
            assertTrue(r.requestHeaders().contains(new Header("X-Trace", "t-1")), r.requestHeaders().toString());
            Timings t = r.timings();
            assertTrue(t.queueEnd() >= 0 && t.upstreamSent() >= t.queueEnd() && t.upstreamHeaders() >= t.upstreamSent()
                    && t.firstByte() >= t.upstreamHeaders() && t.lastByte() >= t.firstByte() && t.ended() >= t.lastByte(), t.toString());
            assertTrue(t.proxyAdded().isPresent() && t.ttfb().isPresent() && t.download().isPresent());
            assertEquals(1, shaper.server().counters("default").snapshot().cleanProxied());
        }
    }

    @Test
    void clientLeavingMidStreamIsOneAbortedRecordWithoutCompletionTime() throws Exception {
        CountDownLatch clientGone = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk("data: one\n\n");
                clientGone.await(10, TimeUnit.SECONDS);
                for (int i = 0; i < 200; i++) { // bounded: writes fail once the proxy dropped the client
                    ex.chunk("data: more\n\n");
                    Thread.sleep(5); // the upstream's pacing, not synchronisation
                }
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/stream HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                assertEquals("data: one\n\n", raw.readChunk());
                raw.socket().setSoLinger(true, 0);
            }
            clientGone.countDown();
            ExchangeRecord r = Records.exactly(shaper, "default", 1).getFirst();
            assertEquals(Outcome.ABORTED, r.outcome());
            assertEquals(EndReason.CLIENT_LEFT, r.reason());
            assertEquals(Provenance.CLIENT_ABORT, r.provenance());
            assertEquals(200, r.status());
            assertEquals("events", r.type());
            assertEquals(Timings.UNSET, r.timings().lastByte(), "an aborted exchange has no completion time");
            assertEquals(1, shaper.server().counters("default").snapshot().status(2), "its 200 still counts in 2xx");
        }
    }

    @Test
    void upstreamBreakingOffIsOneAbortedRecordFromTheUpstreamBody() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: application/json", "Content-Length: 1000");
                ex.write("{\"partial\":");
                ex.reset();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                raw.in().readAllBytes();
            } catch (java.io.IOException expected) {
                // the proxy drops the client connection: the body must not look complete
            }
            ExchangeRecord r = Records.exactly(shaper, "default", 1).getFirst();
            assertEquals(Outcome.ABORTED, r.outcome());
            assertEquals(EndReason.UPSTREAM_BROKE_OFF, r.reason());
            assertEquals(Provenance.UPSTREAM_BODY, r.provenance());
            assertEquals("{\"partial\":", r.responseBody().text());
        }
    }

    @Test
    void unreachableUpstreamIsOneFailedRecord() throws Exception {
        int closed = TestNet.freePort();
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + closed, "-retry", "0")) {
            assertEquals(502, post(shaper, "/v1/messages", "{}").statusCode());
            ExchangeRecord r = Records.exactly(shaper, "default", 1).getFirst();
            assertEquals(Outcome.FAILED, r.outcome());
            assertEquals(EndReason.UPSTREAM_UNREACHABLE, r.reason());
            assertEquals(Provenance.UPSTREAM_TRANSPORT, r.provenance());
            assertEquals(1, r.attempts());
            assertEquals(Timings.UNSET, r.timings().upstreamHeaders());
        }
    }

    @Test
    void relayedUpstreamErrorIsCleanWithUpstreamHttpProvenance() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(404, "{\"error\":\"nope\"}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            assertEquals(404, post(shaper, "/v1/models/x", "{}").statusCode());
            ExchangeRecord r = Records.exactly(shaper, "default", 1).getFirst();
            assertEquals(Outcome.CLEAN, r.outcome());
            assertEquals(Provenance.UPSTREAM_HTTP, r.provenance());
            assertEquals("x", r.name());
        }
    }

    @Test
    void queueTimeoutIsOneFailedRecordThatWaited() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                holding.countDown();
                release.await(10, TimeUnit.SECONDS);
                ex.respond(200, "late");
            });
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-limit-all", "-concurrency", "1",
                     "-queue-timeout", "200ms", "-release-cooldown", "0")) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return post(shaper, "/v1/messages", "{}");
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            assertTrue(holding.await(10, TimeUnit.SECONDS));
            CompletableFuture<HttpResponse<String>> second = CompletableFuture.supplyAsync(() -> {
                try {
                    return post(shaper, "/v1/messages", "{}");
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            RunningShaper.await("the second request's queue alarm set", Duration.ofSeconds(10),
                    () -> time.hasTaskDueIn(Duration.ofMillis(200)));
            time.advance(Duration.ofMillis(200));
            assertEquals(504, second.get(10, TimeUnit.SECONDS).statusCode());
            release.countDown();
            assertEquals(200, first.get(10, TimeUnit.SECONDS).statusCode());
            var records = Records.exactly(shaper, "default", 2);
            ExchangeRecord timedOut = records.stream().filter(r -> r.status() == 504).findFirst().orElseThrow();
            assertEquals(EndReason.QUEUE_TIMEOUT, timedOut.reason());
            assertEquals(Outcome.FAILED, timedOut.outcome());
            assertEquals(0, timedOut.attempts());
            assertTrue(timedOut.timings().queueWait().toMillis() >= 200, timedOut.timings().toString());
            assertEquals(1, shaper.server().counters("default").snapshot().queueTimeouts());
            assertEquals(1, shaper.server().counters("default").snapshot().cleanProxied(), "the timeout is never clean");
        }
    }

    @Test
    void webSocketUpgradeIsOneRecordHoweverLongTheTunnelLives() throws Exception {
        try (EchoWebSocketUpstream up = new EchoWebSocketUpstream();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (TextWebSocket ws = TextWebSocket.open(URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/realtime"))) {
                assertEquals("echo: hello", ws.exchange("hello"));
            }
            ExchangeRecord r = Records.exactly(shaper, "default", 1).getFirst();
            assertEquals(101, r.status());
            assertEquals(EndReason.UPGRADED, r.reason());
            assertEquals(Outcome.CLEAN, r.outcome());
            assertEquals(1, shaper.server().counters("default").snapshot().upgraded());
        }
    }

    @Test
    void refusedClientKeyIsOneFailedRecordWithoutTheKey() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("never");
             RunningShaper shaper = RunningShaper.start("-client-key", "file:" + keyFile(), "-upstream", up.url())) {
            HttpResponse<String> res = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages"))
                    .header("x-api-key", "wrong").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, res.statusCode());
            ExchangeRecord r = Records.exactly(shaper, "default", 1).getFirst();
            assertEquals(EndReason.CLIENT_KEY_REJECTED, r.reason());
            assertEquals(Provenance.LOCAL_ANSWER, r.provenance());
            assertTrue(r.requestHeaders().isEmpty(), "a refused request's credentials are not kept");
        }
    }

    private static String keyFile() throws java.io.IOException {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("shaper-key", ".txt");
        java.nio.file.Files.writeString(f, "right-key-0123456789", StandardCharsets.UTF_8);
        f.toFile().deleteOnExit();
        return f.toString();
    }
}
