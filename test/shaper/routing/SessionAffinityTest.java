package shaper.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A session stays on the target that last served it, so its upstream prompt cache stays warm, and
 * leaves it only on a fallback trigger; {@code -affinity=false} turns that off.
 */
class SessionAffinityTest {
    private static final List<String> ROUTE = List.of("-model-route", "claude-*=a,b");

    /** An upstream answering {@code status} (changed by the test), naming itself in a 200's body. */
    private static ScriptedUpstream switchable(String name, AtomicInteger status) {
        return ScriptedUpstream.start((req, ex) -> ex.respond(status.get(), "{\"from\":\"" + name + "\"}", "Content-Type: application/json"));
    }

    private static String ask(RunningShaper s, String header, String session) throws Exception {
        String[] headers = session == null ? new String[0] : new String[] {header, session};
        return Routed.postNow(s, "/r/v1/messages", Routed.messages("claude-x"), headers).body();
    }

    @Test
    void aSessionSticksToTheTargetThatServedItUntilATriggerMovesIt() throws Exception {
        AtomicInteger aStatus = new AtomicInteger(529);
        AtomicInteger bStatus = new AtomicInteger(200);
        try (ScriptedUpstream a = switchable("a", aStatus);
             ScriptedUpstream b = switchable("b", bStatus);
             RunningShaper shaper = Routed.start(ROUTE, a.url(), List.of(), b.url(), List.of())) {
            assertEquals("{\"from\":\"b\"}", ask(shaper, "X-Claude-Code-Session-Id", "s-1"), "a is overloaded: b serves s-1");
            aStatus.set(200);
            assertEquals("{\"from\":\"b\"}", ask(shaper, "X-Claude-Code-Session-Id", "s-1"), "s-1 stays on b though a is well again");
            assertEquals("{\"from\":\"a\"}", ask(shaper, "X-Claude-Code-Session-Id", "s-2"), "another session starts with the first target");
            assertEquals("{\"from\":\"a\"}", ask(shaper, "session_id", "codex-1"), "Codex's session header is read too");
            assertEquals("{\"from\":\"a\"}", ask(shaper, null, null), "no session, no affinity");
            bStatus.set(529);
            assertEquals("{\"from\":\"a\"}", ask(shaper, "X-Claude-Code-Session-Id", "s-1"), "a trigger at b moves s-1 on");
            bStatus.set(200);
            assertEquals("{\"from\":\"a\"}", ask(shaper, "X-Claude-Code-Session-Id", "s-1"), "and it sticks to a from then on");
        }
    }

    @Test
    void affinityOffSendsEverySessionInRouteOrder() throws Exception {
        AtomicInteger aStatus = new AtomicInteger(529);
        try (ScriptedUpstream a = switchable("a", aStatus);
             ScriptedUpstream b = switchable("b", new AtomicInteger(200));
             RunningShaper shaper = Routed.start(List.of("-model-route", "claude-*=a,b", "-affinity=false"), a.url(), List.of(),
                     b.url(), List.of())) {
            assertEquals("{\"from\":\"b\"}", ask(shaper, "X-Claude-Code-Session-Id", "s-1"));
            aStatus.set(200);
            assertEquals("{\"from\":\"a\"}", ask(shaper, "X-Claude-Code-Session-Id", "s-1"));
        }
    }

    @Test
    void theTableIsBoundedAndForgetsTheLeastRecentlyUsedAndTheExpired() {
        long[] now = {0};
        Affinity table = new Affinity(new RoutingConfig.AffinityConfig(true, 2, java.time.Duration.ofSeconds(10)), () -> now[0]);
        table.served("s1", "a");
        table.served("s2", "b");
        table.get("s1"); // s1 used most recently: s2 goes first
        table.served("s3", "a");
        assertEquals(2, table.size());
        assertEquals(java.util.Optional.empty(), table.get("s2"));
        assertEquals(java.util.Optional.of("a"), table.get("s1"));
        now[0] = java.time.Duration.ofSeconds(11).toNanos();
        assertEquals(java.util.Optional.empty(), table.get("s3"), "unseen past the TTL");
        table.served("s4", "b");
        table.forgetProvider("b");
        assertEquals(java.util.Optional.empty(), table.get("s4"), "a reload that removes b from the routes forgets its sessions");
    }
}
