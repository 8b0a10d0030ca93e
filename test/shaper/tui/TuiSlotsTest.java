package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.testing.ScriptedUpstream;

/**
 * Slots a person can see, under tmux at 160×40: a slot in its release cooldown and one held after an
 * upstream failure are drawn in the gauges with their reason (so "1/4 active, 1 queued" no longer
 * looks broken), the adaptive limit shows where it stands and how it last moved, and rows carry
 * their priority class and what a queued request waits for.
 */
// the first tmux test of a run compiles Shaper.java, minutes on a busy machine
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class TuiSlotsTest {
    private static final Duration SHOWN = Duration.ofSeconds(20);

    @Test
    void coolingAndHeldSlotsShowTheirReasonBesideTheLearnedLimit() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
            if (req.target().startsWith("/fail")) {
                ex.respond(503, "{\"error\":\"overloaded\"}", "Content-Type: application/json");
                return;
            }
            if (req.target().startsWith("/held") && !release.await(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the upstream");
            }
            ex.respond(200, "{\"ok\":true}", "Content-Type: application/json");
        });
             TmuxSession tmux = TmuxSession.start(160, 40)) {
            try {
                run(tmux, release, up.url());
            } finally {
                release.countDown(); // a failed assertion leaves no upstream call hanging
            }
        }
    }

    private static void run(TmuxSession tmux, CountDownLatch release, String upstream) throws Exception {
        TuiProcess shaper = TuiProcess.start(tmux, "-upstream", upstream, "-concurrency", "4", "-limit-all", "-retry", "0",
                "-queue-timeout", "0", "-circuit-breaker=false", "-release-cooldown", "60s", "-failure-hold", "60s", "-adaptive-concurrency",
                "-priority-class", "interactive=4", "-priority-class", "background=1");
        assertEquals(200, shaper.get("/ok").get(60, TimeUnit.SECONDS).statusCode());
        tmux.await("the released slot cooling", SHOWN, s -> s.contains("0/4 active (0%) · 1 cooling (release cooldown)"));

        assertEquals(503, shaper.get("/fail").get(60, TimeUnit.SECONDS).statusCode());
        // the 503 lowers the learned limit from 4 to 3 (one slot retired), and holds its own slot
        CompletableFuture<HttpResponse<String>> first = shaper.send("GET", "/held/1", null, "X-Shaper-Priority", "interactive");
        tmux.await("the first held request active", SHOWN, s -> s.contains("1/4 active"));
        CompletableFuture<HttpResponse<String>> second = shaper.send("GET", "/held/2", null, "X-Shaper-Priority", "background");
        String dash = tmux.await("a queue explained by held and cooling slots", SHOWN,
                s -> s.contains("1/4 active (25%) · 1 held (failure hold) · 1 cooling (release cooldown)") && s.contains("1 queued"));
        assertTrue(dash.matches("(?s).*○ queued\\s+limited\\s+background\\s+GET\\s+\\S+\\s+/held/2  waiting for a slot.*"),
                "the queued row names its class and what it waits for:\n" + dash);
        assertTrue(dash.matches("(?s).*● active\\s+limited\\s+interactive\\s+GET\\s+\\S+\\s+/held/1.*"), dash);

        tmux.keys("5");
        String conc = tmux.await("the default pool with its held, cooling and learned limit", SHOWN,
                s -> s.contains("━━ Concurrency") && s.contains("1 held (failure hold)") && s.contains("1 cooling")
                        && s.contains("limit 3 (adaptive 1..4)") && s.contains("↓ from 4"));
        assertTrue(conc.contains("1/4 active   1 waiting (oldest"), conc);

        tmux.keys("2");
        String requests = tmux.await("the Requests tab with a Class column", SHOWN,
                s -> s.contains("━━ Requests") && s.contains("Class") && s.contains("/fail"));
        assertTrue(requests.matches("(?s).*GET\\s+503\\s+\\S+\\s+interactive\\s+/fail.*"), requests);

        release.countDown();
        assertEquals(200, first.get(60, TimeUnit.SECONDS).statusCode());
        tmux.keys("q"); // the second still waits: its slot went cooling, the others are held or retired
        assertEquals(504, second.get(60, TimeUnit.SECONDS).statusCode(), "a stop answers the waiter as a queue timeout");
        tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
    }
}
