package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.retry.ProxyRetryTest.post;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import shaper.breaker.BreakerState;
import shaper.limit.LimiterSnapshot;
import shaper.limit.ManualTimeSource;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The circuit breaker, the phantom penalty and the large-request gate, seen through the proxy. */
class BreakerGateTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    /** Fails with {@code status} while {@code failing} is set, answers 200 otherwise. */
    private static ScriptedUpstream switchable(int status, boolean[] failing, AtomicInteger calls, String... headers) {
        return ScriptedUpstream.start((req, ex) -> {
            calls.incrementAndGet();
            if (failing[0]) {
                ex.respond(status, "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"boom\"}}", headers);
            } else {
                ex.respond(200, "{\"ok\":true}");
            }
        });
    }

    @Test
    void breakerOpensRejectsLocallyAndRecoversThroughOneProbe() throws Exception {
        boolean[] failing = {true};
        AtomicInteger calls = new AtomicInteger();
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = switchable(500, failing, calls);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-retry", "0", "-cb-threshold", "3",
                     "-cb-open-timeout", "1h", "-cb-max-open-timeout", "2h", "-cb-penalty", "1ms", "-cb-max-penalty", "1ms",
                     "-release-cooldown", "0")) {
            for (int i = 0; i < 3; i++) {
                assertEquals(500, post(shaper, "/v1/messages", "{}").statusCode());
            }
            // the breaker hears of the last failure once the response is relayed: wait for it, bounded
            RunningShaper.await("circuit open", BOUND, () -> shaper.server().breaker("default").state() == BreakerState.OPEN);
            HttpResponse<String> rejected = post(shaper, "/v1/messages", "{}");
            assertEquals(503, rejected.statusCode());
            // a Messages client gets the rejection in its own dialect (see LocalAnswerDialectTest)
            assertTrue(rejected.body().contains("\"type\":\"overloaded_error\"") && rejected.body().contains("\"message\":\"circuit open\""),
                    rejected.body());
            assertEquals(3, calls.get(), "an open circuit never touches the upstream");
            // counted when the exchange's record is published, just after the answer went out
            RunningShaper.await("circuit rejection counted", BOUND,
                    () -> shaper.server().counters("default").snapshot().circuitRejected() == 1);

            failing[0] = false;
            time.advance(Duration.ofMinutes(59));
            assertEquals(503, post(shaper, "/v1/messages", "{}").statusCode(), "still open a minute before the probe");
            time.advance(Duration.ofMinutes(1));
            assertEquals(200, post(shaper, "/v1/messages", "{}").statusCode(), "the open timeout is over: a probe gets through");
            assertEquals(4, calls.get(), "exactly one probe reached the upstream");
            RunningShaper.await("circuit closed", BOUND, () -> shaper.server().breaker("default").state() == BreakerState.CLOSED);
        }
    }

    @Test
    void bareForbiddenNeverTripsTheBreaker() throws Exception {
        boolean[] failing = {true};
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = switchable(403, failing, calls);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-cb-threshold", "2", "-release-cooldown", "0")) {
            for (int i = 0; i < 5; i++) {
                assertEquals(403, post(shaper, "/v1/messages", "{}").statusCode(), "a bad key is never masked");
            }
            assertEquals(5, calls.get(), "a bare 403 is not retried either");
            assertEquals(BreakerState.CLOSED, shaper.server().breaker("default").state());
        }
    }

    @Test
    void phantomPenaltyHoldsTheSlotAndDelaysTheNextAdmission() throws Exception {
        boolean[] failing = {true};
        AtomicInteger calls = new AtomicInteger();
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = switchable(503, failing, calls);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-retry", "0", "-concurrency", "1", "-queue-timeout", "1h",
                     "-release-cooldown", "0", "-cb-penalty", "30s", "-cb-max-penalty", "30s", "-failure-hold", "0")) {
            assertEquals(503, post(shaper, "/v1/messages", "{}").statusCode());
            failing[0] = false;
            RunningShaper.await("penalty holds the only slot", BOUND, () -> pool(shaper).inUse() == 1);
            CompletableFuture<HttpResponse<String>> next = ProxyRetryTest.CLIENT.sendAsync(
                    java.net.http.HttpRequest.newBuilder(shaper.uri("/v1/messages")).POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            RunningShaper.await("the next request waits behind the penalty", BOUND, () -> pool(shaper).waiters() == 1);
            assertEquals(1, calls.get(), "it has not reached the upstream");
            assertTrue(!next.isDone());
            time.advance(Duration.ofSeconds(29));
            assertEquals(1, pool(shaper).waiters(), "still behind the penalty a second before it ends");
            time.advance(Duration.ofSeconds(1));
            assertEquals(200, next.get(10, TimeUnit.SECONDS).statusCode(), "admitted once the penalty is over");
            assertEquals(2, calls.get());
        }
    }

    @Test
    void largeRequestsNeverOverlapAtTheUpstreamWhileSmallOnesDo() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (!gate.await(20, TimeUnit.SECONDS)) {
                    throw new java.io.IOException("gate");
                }
                ex.respond(200, "{\"size\":" + req.body().length + "}");
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-big-ctx-tokens", "1000", "-big-ctx-concurrency", "1",
                     "-concurrency", "10", "-release-cooldown", "0")) {
            String large = "{\"pad\":\"" + "x".repeat(4_100) + "\"}";
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                all.add(async(shaper, large));
            }
            for (int i = 0; i < 3; i++) {
                all.add(async(shaper, "{\"small\":true}"));
            }
            RunningShaper.await("1 large + 3 small at the upstream, 1 large waiting at the gate", BOUND,
                    () -> up.inFlight() == 4 && gateSnapshot(shaper).waiters() == 1);
            assertEquals(1, up.requests().stream().filter(r -> r.body().length > 4000).count());
            gate.countDown();
            for (var f : all) {
                assertEquals(200, f.get(10, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(2, up.requests().stream().filter(r -> r.body().length > 4000).count());
        }
    }

    private static CompletableFuture<HttpResponse<String>> async(RunningShaper shaper, String body) {
        return ProxyRetryTest.CLIENT.sendAsync(java.net.http.HttpRequest.newBuilder(shaper.uri("/v1/messages"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static LimiterSnapshot pool(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().filter(s -> s.name().endsWith("default")).findFirst().orElseThrow();
    }

    private static LimiterSnapshot gateSnapshot(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().filter(s -> s.name().endsWith("gate")).findFirst().orElseThrow();
    }
}
