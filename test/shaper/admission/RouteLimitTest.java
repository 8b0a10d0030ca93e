package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The upstream never sees more than N concurrent requests of a limited class; other traffic passes. */
class RouteLimitTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(10);

    /** An upstream that holds every request until the gate opens. */
    static ScriptedUpstream gated(CountDownLatch gate) {
        return ScriptedUpstream.start((req, ex) -> {
            if (!gate.await(20, TimeUnit.SECONDS)) {
                throw new java.io.IOException("gate never opened");
            }
            ex.respond(200, "done " + req.target());
        });
    }

    static List<CompletableFuture<HttpResponse<String>>> fire(RunningShaper shaper, String method, String path, int n) {
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HttpRequest.BodyPublisher body = method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString("{\"n\":" + i + "}");
            all.add(CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri(path + (path.contains("?") ? "&" : "?") + "i=" + i))
                    .method(method, body).build(), HttpResponse.BodyHandlers.ofString()));
        }
        return all;
    }

    static int waiters(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    static int inUse(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::inUse).sum();
    }

    static void allOk(List<CompletableFuture<HttpResponse<String>>> all) throws Exception {
        for (CompletableFuture<HttpResponse<String>> f : all) {
            assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
        }
    }

    @Test
    void limitedRouteAdmitsNAtOnceAndQueuesTheRest() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit", "POST /chat/completions:2", "-release-cooldown", "0")) {
            var all = fire(shaper, "POST", "/v1/chat/completions", 7);
            RunningShaper.await("2 at upstream, 5 queued", BOUND, () -> up.inFlight() == 2 && waiters(shaper) == 5);
            gate.countDown();
            allOk(all);
            assertEquals(2, up.peakInFlight(), "the upstream never saw more than the limit");
            assertEquals(7, up.requests().size());
        }
    }

    @Test
    void nonMatchingRequestsPassThroughUnlimited() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1")) {
            var all = fire(shaper, "GET", "/v1/models", 5);
            RunningShaper.await("all 5 at the upstream at once", BOUND, () -> up.inFlight() == 5);
            gate.countDown();
            allOk(all);
            assertEquals(0, waiters(shaper));
        }
    }

    @Test
    void defaultPatternsLimitMessagesButNotSubResources() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0")) {
            var limited = fire(shaper, "POST", "/v1/messages", 3);
            var free = fire(shaper, "POST", "/v1/messages/count_tokens", 3);
            RunningShaper.await("1 message + 3 count_tokens upstream, 2 queued", BOUND, () -> up.inFlight() == 4 && waiters(shaper) == 2);
            gate.countDown();
            allOk(limited);
            allOk(free);
        }
    }

    @Test
    void unlimitedRouteBypassesLimitAllAndTheGlobalLimiter() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1",
                     "-global-concurrency", "1", "-limit", "POST /messages/count_tokens:unlimited", "-limit", "POST /messages:1")) {
            var free = fire(shaper, "POST", "/v1/messages/count_tokens", 4);
            RunningShaper.await("4 unlimited at once", BOUND, () -> up.inFlight() == 4);
            assertEquals(0, inUse(shaper), ":unlimited never takes a slot");
            gate.countDown();
            allOk(free);
        }
    }

    @Test
    void limitAllPutsNonMatchingRequestsInTheDefaultPool() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all=true", "-concurrency", "2", "-release-cooldown", "0")) {
            var all = fire(shaper, "GET", "/v1/models", 5);
            RunningShaper.await("2 upstream, 3 queued", BOUND, () -> up.inFlight() == 2 && waiters(shaper) == 3);
            gate.countDown();
            allOk(all);
            assertEquals(2, up.peakInFlight());
        }
    }

    @Test
    void groupMembersShareOneLimiter() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-release-cooldown", "0",
                     "-limit", "POST /chat/completions:2@llm", "-limit", "POST /responses@llm")) {
            var chat = fire(shaper, "POST", "/v1/chat/completions", 3);
            var responses = fire(shaper, "POST", "/v1/responses", 3);
            RunningShaper.await("2 upstream across both routes, 4 queued", BOUND, () -> up.inFlight() == 2 && waiters(shaper) == 4);
            gate.countDown();
            allOk(chat);
            allOk(responses);
            assertEquals(2, up.peakInFlight());
        }
    }

    @Test
    void globalLimiterCapsLimitedAndPassthroughTogether() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "4", "-global-concurrency", "3",
                     "-release-cooldown", "0")) {
            var limited = fire(shaper, "POST", "/v1/messages", 3);
            var passthrough = fire(shaper, "GET", "/v1/models", 3);
            RunningShaper.await("3 upstream, 3 waiting on the global limiter", BOUND, () -> up.inFlight() == 3 && waiters(shaper) == 3);
            gate.countDown();
            allOk(limited);
            allOk(passthrough);
            assertEquals(3, up.peakInFlight());
        }
    }

    @Test
    void conflictingGroupLimitsWarnAndTheFirstWins() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = gated(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-release-cooldown", "0",
                     "-limit", "POST /a:1@g", "-limit", "POST /b:5@g")) {
            assertTrue(shaper.stderr().contains("WARNING: route \"POST /b:5@g\" specifies group \"g\" with limit 5, but group already has limit 1. Using 1."),
                    shaper.stderr());
            var all = fire(shaper, "POST", "/b", 3);
            RunningShaper.await("1 upstream, 2 queued", BOUND, () -> up.inFlight() == 1 && waiters(shaper) == 2);
            gate.countDown();
            allOk(all);
        }
    }
}
