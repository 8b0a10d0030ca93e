package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The retry transport end to end: what is retried, what passes through, what the client sees. */
class ProxyRetryTest {
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** Fast backoff so tests retry in milliseconds; the breaker stays out of the way unless a test wants it. */
    static final String[] FAST = {"-retry-wait-min", "5ms", "-retry-wait-max", "20ms", "-retry-min-delay", "0", "-release-cooldown", "0",
            "-failure-hold", "0", "-cb-threshold", "1000"};

    private ProbeServer probe;

    @BeforeEach
    void startProbe() {
        probe = ProbeServer.start(ProbeConfig.defaults(0));
    }

    @AfterEach
    void stopProbe() {
        probe.stop();
    }

    static RunningShaper shaper(String upstream, String... extra) {
        String[] args = new String[FAST.length + 2 + extra.length];
        args[0] = "-upstream";
        args[1] = upstream;
        System.arraycopy(FAST, 0, args, 2, FAST.length);
        System.arraycopy(extra, 0, args, 2 + FAST.length, extra.length);
        return RunningShaper.start(args);
    }

    static HttpResponse<String> post(RunningShaper shaper, String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String probeUrl(String prefix) {
        return "http://127.0.0.1:" + probe.port() + prefix;
    }

    @Test
    void retried503ReachesTheClientAs200() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl("/burst5xx"))) {
            HttpResponse<String> r = post(shaper, "/v1/messages?fails=3", "{\"model\":\"m\",\"max_tokens\":5}");
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("Hello from ProbeServer."), r.body());
            assertEquals(4, probe.stats().snapshot().hits("/burst5xx/v1/messages"), "three 503s, then the success");
        }
    }

    @Test
    void unavailable422IsRetriedToSuccess() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (calls.incrementAndGet() <= 2) {
                    ex.respond(422, "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Upstream service unavailable\"}}");
                } else {
                    ex.respond(200, "{\"ok\":true}", "Content-Type: application/json");
                }
            });
             RunningShaper shaper = shaper(up.url())) {
            HttpResponse<String> r = post(shaper, "/v1/messages", "{}");
            assertEquals(200, r.statusCode());
            assertEquals("{\"ok\":true}", r.body());
            assertEquals(3, calls.get());
        }
    }

    @Test
    void aDiscardedAttemptIsDrainedSoItsConnectionIsReused() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (calls.incrementAndGet() <= 2) {
                    ex.respond(503, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}");
                } else {
                    ex.respond(200, "{\"ok\":true}");
                }
            });
             RunningShaper shaper = shaper(up.url())) {
            assertEquals(200, post(shaper, "/v1/messages", "{}").statusCode());
            assertEquals(3, calls.get());
            assertEquals(1, up.connections(), "both failed attempts' bodies were read, so one connection served all three");
        }
    }

    @Test
    void rateLimit422IsRetriedAndFormat422PassesThroughUntouched() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""))) {
            assertEquals(200, post(shaper, "/flaky422/v1/messages", "{}").statusCode());
            HttpResponse<String> fmt = post(shaper, "/fmt422/v1/messages", "{}");
            assertEquals(422, fmt.statusCode());
            assertTrue(fmt.body().contains("unexpected format"), fmt.body());
            assertEquals(1, probe.stats().snapshot().hits("/fmt422/v1/messages"), "a format error is never retried");
        }
    }

    @Test
    void invalidRequestWordingWinsOverRetryableStatus() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""))) {
            HttpResponse<String> r = post(shaper, "/reject502/v1/messages", "{}");
            assertEquals(502, r.statusCode());
            assertTrue(r.body().contains("rejected the request as invalid"));
            assertEquals(1, probe.stats().snapshot().hits("/reject502/v1/messages"));
        }
    }

    @Test
    void transportFailuresAreRetried() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""))) {
            HttpResponse<String> r = post(shaper, "/flakyconn/v1/messages", "{}");
            assertEquals(200, r.statusCode());
            assertEquals(3, probe.stats().snapshot().hits("/flakyconn/v1/messages"));
        }
    }

    @Test
    void retry429OnlyWhenSkip429IsOff() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""))) {
            HttpResponse<String> r = post(shaper, "/retry429/v1/messages?after=0", "{}");
            assertEquals(429, r.statusCode(), "-retry-skip-429 defaults to true");
            assertEquals(1, probe.stats().snapshot().hits("/retry429/v1/messages"));
        }
    }

    @Test
    void exhaustedNonStreamingRetriesReturnTheLastErrorWithRetryAfterAdded() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""), "-retry", "2")) {
            HttpResponse<String> r = post(shaper, "/unavail503/v1/messages", "{}");
            assertEquals(503, r.statusCode());
            assertTrue(r.body().contains("Upstream service unavailable"));
            assertTrue(r.headers().firstValue("retry-after").isPresent(), "Retry-After added when the budget is exhausted");
            assertEquals(3, probe.stats().snapshot().hits("/unavail503/v1/messages"), "-retry 2 means three calls");
        }
    }

    @Test
    void retryZeroSendsOnce() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""), "-retry", "0")) {
            assertEquals(503, post(shaper, "/unavail503/v1/messages", "{}").statusCode());
            assertEquals(1, probe.stats().snapshot().hits("/unavail503/v1/messages"));
        }
    }

    @Test
    void bodiesLargerThanTheReplayLimitAreSentOnceUnbuffered() throws Exception {
        String big = "{\"pad\":\"" + "x".repeat(1024 * 1024 + 10) + "\"}";
        try (RunningShaper shaper = shaper(probeUrl(""), "-retry-max-body-mb", "1")) {
            assertEquals(503, post(shaper, "/unavail503/v1/messages", big).statusCode());
            assertEquals(1, probe.stats().snapshot().hits("/unavail503/v1/messages"));
        }
    }

    @Test
    void aBodyBufferedOnlyToWaitInTheQueueIsStillNotReplayedAboveTheLimit() throws Exception {
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        String big = "{\"pad\":\"" + "x".repeat(1024 * 1024 + 10) + "\"}";
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (req.target().contains("hold")) {
                    if (!gate.await(20, java.util.concurrent.TimeUnit.SECONDS)) {
                        throw new java.io.IOException("gate");
                    }
                    ex.respond(200, "{}");
                    return;
                }
                ex.respond(503, "{\"error\":{\"type\":\"api_error\",\"message\":\"busy\"}}");
            });
             RunningShaper shaper = shaper(up.url(), "-retry-max-body-mb", "1", "-limit-all", "-concurrency", "1")) {
            var holder = CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/hold")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            RunningShaper.await("slot taken", java.time.Duration.ofSeconds(10), () -> up.inFlight() == 1);
            var big503 = CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages")).POST(HttpRequest.BodyPublishers.ofString(big)).build(),
                    HttpResponse.BodyHandlers.ofString());
            RunningShaper.await("queued", java.time.Duration.ofSeconds(10),
                    () -> shaper.server().limiters("default").stream().mapToInt(l -> l.waiters()).sum() == 1);
            gate.countDown();
            holder.get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(503, big503.get(20, java.util.concurrent.TimeUnit.SECONDS).statusCode());
            assertEquals(1, up.requests().stream().filter(r -> r.target().equals("/v1/messages")).count(),
                    "over -retry-max-body-mb: sent once even though it waited in memory");
        }
    }

    @Test
    void retryDeadlineEndsRetries() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""), "-retry-deadline", "300ms", "-retry-wait-min", "100ms",
                "-retry-wait-max", "100ms")) {
            long start = System.nanoTime();
            assertEquals(503, post(shaper, "/unavail503/v1/messages", "{}").statusCode());
            long hits = probe.stats().snapshot().hits("/unavail503/v1/messages");
            assertTrue(hits >= 2 && hits <= 5, "a few attempts within the deadline, got " + hits);
            assertTrue(System.nanoTime() - start < 5_000_000_000L);
        }
    }

    @Test
    void silentUpstreamIsCutOffByTheUpstreamTimeout() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                release.await(20, java.util.concurrent.TimeUnit.SECONDS); // never answers in time
            });
             RunningShaper shaper = shaper(up.url(), "-retry", "0", "-upstream-timeout", "300ms")) {
            long start = System.nanoTime();
            HttpResponse<String> r = post(shaper, "/v1/messages", "{}");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(502, r.statusCode());
            assertTrue(ms < 10_000, "bounded by -upstream-timeout, took " + ms + " ms");
        } finally {
            release.countDown();
        }
    }

    @Test
    void errorHiddenUnder200BecomesA502ForNonStreamingClientsWithTheBodyKept() throws Exception {
        try (RunningShaper shaper = shaper(probeUrl(""), "-retry", "1")) {
            HttpResponse<String> r = post(shaper, "/sse200limit/v1/messages", "{\"stream\":false}");
            assertEquals(502, r.statusCode());
            assertTrue(r.body().contains("event: error"), r.body());
            assertEquals(2, probe.stats().snapshot().hits("/sse200limit/v1/messages"));
        }
    }

    @Test
    void exhaustedRetriesNameTheCauseAndTheUpstreamButNeverAStack() throws Exception {
        try (RunningShaper shaper = shaper("http://127.0.0.1:1", "-retry", "1")) {
            HttpResponse<String> r = post(shaper, "/v1/messages", "{}");
            assertEquals(502, r.statusCode());
            // the configured upstream is what the operator must fix, so the answer names it (never its query)
            assertTrue(r.body().contains("upstream unreachable: connection refused (http://127.0.0.1:1)"), r.body());
            assertFalse(r.body().contains("Exception") || r.body().contains("\tat "), r.body());
        }
    }
}
