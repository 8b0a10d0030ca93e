package shaper.tokens;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.ManualTimeSource;
import shaper.observe.EndReason;
import shaper.observe.InFlight;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;

/** Token waiters keep the queue's semantics: timeout, depth, departure, stop, free routes, oversized requests. */
class BudgetQueueTest {
    private static final String BODY = "{\"model\":\"claude-q\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static CompletableFuture<HttpResponse<String>> postAsync(TokenFixture f, String path, String body) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return f.post(path, body);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    /**
     * A request that waits for tokens until its 30s queue timeout, which the test's clock reaches at
     * once: the bucket (one request, or 500 tokens, a minute) has not refilled enough by then.
     */
    private static HttpResponse<String> timedOut(TokenFixture f, ManualTimeSource time, String body) throws Exception {
        CompletableFuture<HttpResponse<String>> waiting = postAsync(f, "/v1/messages", body);
        RunningShaper.await("the waiter's 30s alarm set", TokenFixture.BOUND, () -> time.hasTaskDueIn(Duration.ofSeconds(30)));
        time.advance(Duration.ofSeconds(30));
        return waiting.get(20, TimeUnit.SECONDS);
    }

    private static void awaitQueued(TokenFixture f, int n) {
        RunningShaper.await(n + " queued", TokenFixture.BOUND, () -> f.shaper.server().journal("default").inFlight().stream()
                .filter(i -> i.state() == InFlight.State.QUEUED).count() == n);
    }

    @Test
    void aTokenWaiterTimesOutWith504InTheClientsDialectNamingTheSetting() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        try (TokenFixture f = TokenFixture.start(time, "/", "-rpm", "1", "-queue-timeout", "30s")) {
            assertEquals(200, f.post("/v1/messages", BODY).statusCode());
            HttpResponse<String> second = timedOut(f, time, BODY);
            assertEquals(504, second.statusCode());
            assertEquals("{\"type\":\"error\",\"error\":{\"type\":\"timeout_error\",\"message\":\"queue timeout after 30s (-queue-timeout)\"}}",
                    second.body());
        }
    }

    @Test
    void aFullQueueAnswers429WithTheWaitTheBucketPredicts() throws Exception {
        try (TokenFixture f = TokenFixture.start("/", "-rpm", "1", "-queue-depth", "1", "-queue-timeout", "30s")) {
            assertEquals(200, f.post("/v1/messages", BODY).statusCode());
            CompletableFuture<HttpResponse<String>> waiting = postAsync(f, "/v1/messages", BODY);
            RunningShaper.await("the journal says what it waits for", TokenFixture.BOUND, () -> f.shaper.server().journal("default")
                    .inFlight().stream().anyMatch(i -> i.waitingFor().equals("waiting for tokens (requests)")));
            HttpResponse<String> refused = f.post("/v1/messages", BODY);
            assertEquals(429, refused.statusCode());
            long after = Long.parseLong(refused.headers().firstValue("retry-after").orElseThrow());
            assertTrue(after >= 50 && after <= 60, "one request a minute: " + after);
            assertEquals(1.0, TokenFixture.value(f.metrics(), "shaper_budget_waits_total{kind=\"requests\",provider=\"default\"}"));
            f.shaper.server().shutdown(Duration.ofSeconds(5)); // the queued one is answered as a stop answers waiters
            assertEquals(504, waiting.get(20, TimeUnit.SECONDS).statusCode());
        }
    }

    @Test
    void tokenWaitersAreCountedByClassAndAHeavierArrivalDisplacesALighterOne() throws Exception {
        try (TokenFixture f = TokenFixture.start("/", "-rpm", "1", "-queue-depth", "1", "-queue-timeout", "30s",
                "-priority-class", "interactive=4", "-priority-class", "background=1", "-priority-rule", "model~*bg*=background")) {
            assertEquals(200, f.post("/v1/messages", BODY).statusCode());
            CompletableFuture<HttpResponse<String>> background = postAsync(f, "/v1/messages", BODY.replace("claude-q", "claude-bg"));
            awaitQueued(f, 1);
            assertEquals(1.0, TokenFixture.value(f.metrics(), "shaper_class_queued{class=\"background\",provider=\"default\"}"));
            CompletableFuture<HttpResponse<String>> interactive = postAsync(f, "/v1/messages", BODY);
            HttpResponse<String> displaced = background.get(20, TimeUnit.SECONDS);
            assertEquals(429, displaced.statusCode(), "the background waiter gave its place to the interactive arrival");
            long after = Long.parseLong(displaced.headers().firstValue("retry-after").orElseThrow());
            assertTrue(after >= 50 && after <= 60, "when the head's request comes: " + after);
            awaitQueued(f, 1);
            String metrics = f.metrics();
            assertEquals(1.0, TokenFixture.value(metrics, "shaper_class_queued{class=\"interactive\",provider=\"default\"}"));
            assertEquals(0.0, TokenFixture.value(metrics, "shaper_class_queued{class=\"background\",provider=\"default\"}"));
            f.shaper.server().shutdown(Duration.ofSeconds(5));
            assertEquals(504, interactive.get(20, TimeUnit.SECONDS).statusCode());
        }
    }

    @Test
    void aTokenWaiterWhoseClientLeavesIsRemovedFromTheQueue() throws Exception {
        try (TokenFixture f = TokenFixture.start("/", "-rpm", "1", "-queue-timeout", "30s")) {
            assertEquals(200, f.post("/v1/messages", BODY).statusCode());
            try (RawHttp quitter = new RawHttp(f.shaper.port())) {
                quitter.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + BODY.length() + "\r\n\r\n" + BODY);
                awaitQueued(f, 1);
            }
            RunningShaper.await("the departed waiter's record", TokenFixture.BOUND, () -> f.shaper.server().journal("default").recent()
                    .stream().anyMatch(r -> r.reason() == EndReason.CLIENT_LEFT));
            awaitQueued(f, 0);
            assertEquals(1, f.probe.stats().snapshot().hits("/v1/messages"), "the quitter never reached the upstream");
        }
    }

    @Test
    void freeRoutesNeverWaitForTokens() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        try (TokenFixture f = TokenFixture.start(time, "/", "-rpm", "1", "-queue-timeout", "30s")) {
            assertEquals(200, f.post("/v1/messages", BODY).statusCode());
            assertEquals(200, f.post("/v1/messages/count_tokens", BODY).statusCode());
            assertEquals(200, TokenFixture.CLIENT.send(java.net.http.HttpRequest.newBuilder(f.shaper.uri("/v1/models")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(504, timedOut(f, time, BODY).statusCode(), "while a completion still waits");
        }
    }

    @Test
    void aRequestLargerThanTheWholeBucketIsAdmittedWhenItIsFull() throws Exception {
        String big = BODY.replace("\"hi\"", "\"" + "x".repeat(8000) + "\"");
        ManualTimeSource time = new ManualTimeSource();
        try (TokenFixture f = TokenFixture.start(time, "/", "-itpm", "500", "-queue-timeout", "30s")) {
            assertEquals(200, f.post("/v1/messages", big).statusCode(), "2000 tokens pass a full bucket of 500");
            assertEquals(504, timedOut(f, time, BODY).statusCode(), "the debt is paid back first");
        }
    }
}
