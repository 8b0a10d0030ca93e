package shaper.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.observe.EndReason;
import shaper.observe.RouteTrail;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Fallback by queue: a request that waits too long for a target's slot or tokens, finds its queue
 * full or its circuit open leaves it (its place given up) and queues at the next target; and no
 * fallback once anything of the answer was sent, while a queue-comment stream may still move.
 */
class QueueFallbackTest {
    private static final List<String> ROUTE = List.of("-model-route", "claude-*=a,b", "-fallback-after", "300ms");
    private static final List<String> ONE_SLOT = List.of("-limit-all", "-concurrency", "1", "-release-cooldown", "0", "-queue-timeout", "20s");

    /** An upstream that holds every request whose body says "hold" until {@code gate} opens, and answers the rest at once. */
    private static ScriptedUpstream holding(CountDownLatch gate, String answer) {
        return ScriptedUpstream.start((req, ex) -> {
            if (req.bodyText().contains("hold") && !gate.await(20, TimeUnit.SECONDS)) {
                throw new IOException("gate never opened");
            }
            ex.respond(200, answer, "Content-Type: application/json");
        });
    }

    private static int waiters(RunningShaper s, String provider) {
        return s.server().limiters(provider).stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    private static int inUse(RunningShaper s, String provider) {
        return s.server().limiters(provider).stream().mapToInt(LimiterSnapshot::inUse).max().orElse(0);
    }

    @Test
    void aRequestThatWaitsPastFallbackAfterLeavesTheQueueForTheNextTarget() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream a = holding(gate, "{\"from\":\"a\"}");
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(ROUTE, a.url(), ONE_SLOT, b.url(), ONE_SLOT)) {
            CompletableFuture<HttpResponse<String>> held = Routed.post(shaper, "/r/v1/messages", Routed.messages("claude-hold"));
            RunningShaper.await("a's one slot taken", Routed.BOUND, () -> a.inFlight() == 1);
            HttpResponse<String> moved = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x"));
            assertEquals("{\"from\":\"b\"}", moved.body());
            assertEquals(List.of(new RouteTrail.Move("a", "b", "queue_wait")), Routed.newest(shaper, "b", 1).routing().moves());
            assertEquals(0, waiters(shaper, "a"), "its place in a's queue was given up");
            assertEquals(1, inUse(shaper, "a"), "only the held request has a's slot");
            assertTrue(Routed.newest(shaper, "b", 1).timings().queueWait().toMillis() >= 300, "it waited -fallback-after at a first");
            gate.countDown();
            assertEquals("{\"from\":\"a\"}", held.get(15, TimeUnit.SECONDS).body());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void shortestWaitTriesTheTargetWithAFreeSlotFirst() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream a = holding(gate, "{\"from\":\"a\"}");
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(List.of("-model-route", "claude-*=a,b", "-route-pick", "shortest-wait"), a.url(), ONE_SLOT,
                     b.url(), ONE_SLOT)) {
            assertEquals("{\"from\":\"a\"}", Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).body(),
                    "both free: the written order decides");
            var held = Routed.post(shaper, "/a/v1/messages", Routed.messages("hold"));
            RunningShaper.await("a's one slot taken", Routed.BOUND, () -> a.inFlight() == 1);
            assertEquals("{\"from\":\"b\"}", Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).body());
            assertEquals(List.of(), Routed.newest(shaper, "b", 1).routing().moves(), "b was first: nothing waited at a");
            gate.countDown();
            assertEquals(200, held.get(15, TimeUnit.SECONDS).statusCode());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void aClientThatLeavesWhileQueuedAtTheFirstTargetMovesNowhereAndLeavesNothing() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        List<String> route = List.of("-model-route", "claude-*=a,b", "-fallback-after", "1m");
        try (ScriptedUpstream a = holding(gate, "{}");
             ScriptedUpstream b = ScriptedUpstream.ok("{}");
             RunningShaper shaper = Routed.start(route, a.url(), ONE_SLOT, b.url(), List.of())) {
            var held = Routed.post(shaper, "/r/v1/messages", Routed.messages("claude-hold"));
            RunningShaper.await("a's one slot taken", Routed.BOUND, () -> a.inFlight() == 1);
            String body = Routed.messages("claude-x");
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("POST /r/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.length() + "\r\n\r\n" + body);
                RunningShaper.await("queued at a", Routed.BOUND, () -> waiters(shaper, "a") == 1);
            } // the client leaves
            RunningShaper.await("its place at a given up", Routed.BOUND, () -> waiters(shaper, "a") == 0);
            assertEquals(0, b.requests().size(), "a client that left is no fallback trigger");
            gate.countDown();
            assertEquals(200, held.get(15, TimeUnit.SECONDS).statusCode());
            Routed.awaitNothingHeld(shaper);
            RunningShaper.await("both recorded at a", Routed.BOUND, () -> shaper.server().journal("a").recent().size() == 2);
            assertTrue(shaper.server().journal("a").recent().stream().anyMatch(r -> r.reason() == EndReason.CLIENT_LEFT));
        }
    }

    @Test
    void aFullQueueMovesOnAtOnce() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        List<String> depthOne = List.of("-limit-all", "-concurrency", "1", "-queue-depth", "1", "-release-cooldown", "0");
        try (ScriptedUpstream a = holding(gate, "{\"from\":\"a\"}");
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(List.of("-model-route", "claude-*=a,b"), a.url(), depthOne, b.url(), List.of())) {
            var held = Routed.post(shaper, "/a/v1/messages", Routed.messages("hold"));
            RunningShaper.await("a's one slot taken", Routed.BOUND, () -> a.inFlight() == 1);
            var queued = Routed.post(shaper, "/a/v1/messages", Routed.messages("hold"));
            RunningShaper.await("a's queue full", Routed.BOUND, () -> waiters(shaper, "a") == 1);
            assertEquals("{\"from\":\"b\"}", Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).body());
            assertEquals(List.of(new RouteTrail.Move("a", "b", "queue_full")), Routed.newest(shaper, "b", 1).routing().moves());
            assertEquals(1, waiters(shaper, "a"), "the waiter on a's own mount is still there, nothing more");
            gate.countDown();
            assertEquals(200, held.get(15, TimeUnit.SECONDS).statusCode());
            assertEquals(200, queued.get(15, TimeUnit.SECONDS).statusCode());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void anOpenCircuitMovesOnWithoutCallingTheTarget() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> ex.respond(500, "{}"));
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(List.of("-model-route", "claude-*=a,b"), a.url(),
                     List.of("-cb-threshold", "1", "-cb-open-timeout", "1m"), b.url(), List.of())) {
            assertEquals(500, Routed.postNow(shaper, "/a/v1/messages", "{}").statusCode()); // a's own mount opens its circuit
            RunningShaper.await("a's circuit open", Routed.BOUND, () -> shaper.server().breaker("a").state().name().equals("OPEN"));
            assertEquals("{\"from\":\"b\"}", Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).body());
            assertEquals(1, a.requests().size(), "the open circuit kept the request from a");
            assertEquals(List.of(new RouteTrail.Move("a", "b", "circuit_open")), Routed.newest(shaper, "b", 1).routing().moves());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void aTokenBudgetWaitPastFallbackAfterMovesOn() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("{\"from\":\"a\"}");
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(ROUTE, a.url(), List.of("-limit-all", "-rpm", "1"), b.url(), List.of())) {
            assertEquals("{\"from\":\"a\"}", Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).body());
            assertEquals("{\"from\":\"b\"}", Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).body(),
                    "a's budget would admit it only in a minute");
            assertEquals(List.of(new RouteTrail.Move("a", "b", "queue_wait")), Routed.newest(shaper, "b", 1).routing().moves());
            assertEquals(1, a.requests().size());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void nothingMovesOnceTheAnswerStarted() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> {
                 ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                 ex.chunk("event: message_start\ndata: {\"type\":\"message_start\"}\n\n");
                 ex.reset(); // the upstream dies mid-answer
             });
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(List.of("-model-route", "claude-*=a,b"), a.url(), List.of("-inspect-sse=false"),
                     b.url(), List.of())) {
            try {
                HttpResponse<String> r = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x"), "Accept", "text/event-stream");
                assertTrue(r.body().contains("message_start") && !r.body().contains("from"), r.body());
            } catch (java.util.concurrent.ExecutionException cut) {
                // the proxy cuts a committed answer it cannot finish: the client sees its connection end
            }
            assertEquals(0, b.requests().size(), "a started answering: no fallback after commit");
            assertEquals(List.of(), Routed.newest(shaper, "a", 1).routing().moves());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void aQueueCommentStreamThatCommittedEarlyMayStillMove() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        List<String> commenting = List.of("-limit-all", "-concurrency", "1", "-release-cooldown", "0", "-queue-comments", "50ms");
        String sse = "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        try (ScriptedUpstream a = holding(gate, "{}");
             ScriptedUpstream b = ScriptedUpstream.start((req, ex) -> ex.respond(200, sse, "Content-Type: text/event-stream"));
             RunningShaper shaper = Routed.start(ROUTE, a.url(), commenting, b.url(), List.of())) {
            var held = Routed.post(shaper, "/r/v1/messages", Routed.messages("claude-hold"));
            RunningShaper.await("a's one slot taken", Routed.BOUND, () -> a.inFlight() == 1);
            HttpResponse<String> r = Routed.postNow(shaper, "/r/v1/messages",
                    Routed.messages("claude-x").replace("\"max_tokens\"", "\"stream\":true,\"max_tokens\""), "Accept", "text/event-stream");
            assertEquals(200, r.statusCode());
            assertTrue(r.body().startsWith(": queue-wait"), r.body());
            assertTrue(r.body().contains("message_stop"), "b's answer follows a's queue comments: " + r.body());
            assertEquals(List.of(new RouteTrail.Move("a", "b", "queue_wait")), Routed.newest(shaper, "b", 1).routing().moves());
            gate.countDown();
            assertEquals(200, held.get(15, TimeUnit.SECONDS).statusCode());
            Routed.awaitNothingHeld(shaper);
        }
    }
}
