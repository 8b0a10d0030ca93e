package shaper.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.observe.ExchangeRecord;
import shaper.observe.RouteTrail;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Every upstream fallback trigger moves a routed request to the route's next target before anything of
 * the answer is sent, and only those: the client gets the next target's answer, the record and the
 * exchange line say where it went and why, and the target it left keeps nothing.
 */
class FallbackTriggersTest {
    private static final List<String> ROUTE = List.of("-model-route", "claude-*=a,b");

    private static ScriptedUpstream answering(int status, String... headers) {
        return ScriptedUpstream.start((req, ex) -> ex.respond(status, "{\"type\":\"error\",\"error\":{\"type\":\"x\",\"message\":\"m\"}}",
                headers));
    }

    private static void assertMovesOn(ScriptedUpstream first, String why) throws Exception {
        try (ScriptedUpstream second = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(ROUTE, first.url(), List.of("-limit-all"), second.url(), List.of("-limit-all"))) {
            HttpResponse<String> r = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x"));
            assertEquals(200, r.statusCode(), why + ": " + r.body());
            assertEquals("{\"from\":\"b\"}", r.body());
            assertEquals(1, first.requests().size(), why);
            assertEquals("/v1/messages", second.onlyRequest().target());
            ExchangeRecord rec = Routed.newest(shaper, "b", 1);
            assertEquals(new RouteTrail("claude-*", "b", List.of(new RouteTrail.Move("a", "b", why))), rec.routing());
            assertEquals(0, shaper.server().journal("a").recent().size(), "one exchange, one record: the provider that answered it");
            RunningShaper.await("the exchange line", Routed.BOUND, () -> !shaper.logLines("exchange provider=b").isEmpty());
            String line = shaper.logLines("exchange provider=b").getFirst();
            assertTrue(line.contains(" route=claude-* target=b from=a to=b why=" + why), line);
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void a429MovesOn() throws Exception {
        try (ScriptedUpstream a = answering(429, "Retry-After: 1")) {
            assertMovesOn(a, "429");
        }
    }

    @Test
    void a529MovesOn() throws Exception {
        try (ScriptedUpstream a = answering(529)) {
            assertMovesOn(a, "529");
        }
    }

    @Test
    void a503MovesOn() throws Exception {
        try (ScriptedUpstream a = answering(503)) {
            assertMovesOn(a, "5xx");
        }
    }

    @Test
    void a402MovesOn() throws Exception {
        try (ScriptedUpstream a = answering(402)) {
            assertMovesOn(a, "402");
        }
    }

    @Test
    void aRateLimitSignalled403MovesOn() throws Exception {
        try (ScriptedUpstream a = answering(403, "x-ratelimit-remaining: 0")) {
            assertMovesOn(a, "403");
        }
    }

    @Test
    void anUnreachableTargetMovesOn() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            dead = s.getLocalPort(); // closed again: connecting to it is refused
        }
        try (ScriptedUpstream second = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(ROUTE, "http://127.0.0.1:" + dead, List.of("-limit-all"), second.url(), List.of())) {
            HttpResponse<String> r = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x"));
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(List.of(new RouteTrail.Move("a", "b", "transport")), Routed.newest(shaper, "b", 1).routing().moves());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void aBare403AndA400AreTheClientsAnswerNotAMove() throws Exception {
        for (int status : new int[] {400, 403}) {
            try (ScriptedUpstream a = answering(status);
                 ScriptedUpstream second = ScriptedUpstream.ok("{\"from\":\"b\"}");
                 RunningShaper shaper = Routed.start(ROUTE, a.url(), List.of(), second.url(), List.of())) {
                assertEquals(status, Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).statusCode());
                assertEquals(0, second.requests().size(), "status " + status + " is not a trigger");
                assertEquals(List.of(), Routed.newest(shaper, "a", 1).routing().moves());
            }
        }
    }

    @Test
    void theLastTargetsFailureIsTheClientsAnswer() throws Exception {
        try (ScriptedUpstream a = answering(529);
             ScriptedUpstream b = answering(503);
             RunningShaper shaper = Routed.start(ROUTE, a.url(), List.of(), b.url(), List.of())) {
            HttpResponse<String> r = Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x"));
            assertEquals(503, r.statusCode(), "the last target's own answer, relayed");
            assertEquals(List.of(new RouteTrail.Move("a", "b", "529")), Routed.newest(shaper, "b", 1).routing().moves());
            Routed.awaitNothingHeld(shaper);
        }
    }

    @Test
    void theTargetsOwnRetriesRunBeforeItIsLeft() throws Exception {
        try (ScriptedUpstream a = answering(503);
             ScriptedUpstream b = ScriptedUpstream.ok("{\"from\":\"b\"}");
             RunningShaper shaper = Routed.start(ROUTE, a.url(), List.of("-retry", "2", "-retry-wait-min", "1ms", "-retry-wait-max", "2ms"),
                     b.url(), List.of())) {
            assertEquals(200, Routed.postNow(shaper, "/r/v1/messages", Routed.messages("claude-x")).statusCode());
            assertEquals(3, a.requests().size(), "a's own -retry 2 first, then b");
            assertEquals(1, b.requests().size());
        }
    }
}
