package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.ScriptedUpstream;

/**
 * The dashboard as a person sees it while traffic flows: the real program under tmux at 120×40,
 * requests held by the upstream so they wait in the queue, then released.
 */
class TuiTrafficTest {
    private static final Duration SHOWN = Duration.ofSeconds(15);

    @Test
    void showsWaitingAndCompletedTrafficOnEveryTab() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
            if (!release.await(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the upstream");
            }
            ex.respond(200, "{\"ok\":true}", "Content-Type: application/json");
        });
             TmuxSession tmux = TmuxSession.start(120, 40)) {
            TuiProcess shaper = TuiProcess.start(tmux, "-upstream", up.url(), "-concurrency", "2", "-limit-all");
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                calls.add(shaper.get("/v1/held/" + i));
            }
            String waiting = tmux.await("2 active and 3 queued", SHOWN,
                    s -> s.contains("2/2 active (100%)") && s.contains("3 queued (oldest"));
            assertTrue(waiting.contains("active 2/2  queued 3"), "the header shows the load:\n" + waiting);
            assertTrue(waiting.contains("In-Flight Requests (5)") && waiting.contains("○ queued") && waiting.contains("● active"),
                    waiting);
            assertTrue(waiting.contains("/v1/held/"), "in-flight rows name their path:\n" + waiting);
            assertTrue(waiting.matches("(?s).*○ queued\\s+limited\\s+GET\\s+\\S+\\s+/v1/held/\\d  waiting for a slot.*"),
                    "a queued row says what it waits for:\n" + waiting);

            tmux.keys("5");
            tmux.await("Concurrency tab with the default pool's waiters", SHOWN,
                    s -> s.contains("━━ Concurrency") && s.contains("default pool") && s.contains("3 waiting (oldest"));

            release.countDown();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertEquals(200, c.get(60, TimeUnit.SECONDS).statusCode());
            }
            tmux.keys("1");
            String done = tmux.await("five clean completions", SHOWN,
                    s -> s.matches("(?s).*Clean proxied\\s+5 .*") && s.contains("2xx 5") && s.contains("0/2 active"));
            assertTrue(done.contains("0 queued"), done);

            tmux.keys("2");
            String requests = tmux.await("the Requests tab with a row per request", SHOWN,
                    s -> s.contains("━━ Requests") && s.contains("Duration  Path") && count(s, "/v1/held/") == 5);
            assertTrue(requests.matches("(?s).*GET\\s+200\\s+\\S+\\s+/v1/held/\\d.*"), requests);

            tmux.keys("Enter");
            tmux.await("the detail overlay of the selected request", SHOWN,
                    s -> s.contains("Request #") && s.contains("Request headers") && s.contains("Response headers")
                            && s.contains("application/json"));
            tmux.keys("Escape");
            tmux.await("the overlay closed", SHOWN, s -> !s.contains("Request headers"));

            tmux.keys("3");
            tmux.await("the Network tab with a waterfall", SHOWN,
                    s -> s.contains("━━ Network") && s.contains("Waterfall") && s.contains("type: all (t)")
                            && s.matches("(?s).*\\s[0-4]\\s+GET\\s+200\\s+json.*"));
            tmux.keys("s", "s");
            tmux.await("the 4xx status filter hides every row", SHOWN, s -> s.contains("status: 4xx") && s.contains("no request matches"));

            tmux.keys("4");
            tmux.await("the Logs tab with exchange lines", SHOWN,
                    s -> s.contains("━━ Logs") && s.contains("exchange provider=default") && s.contains("path=/v1/held/"));
            tmux.keys("/");
            tmux.keys("-l", "listening");
            tmux.keys("Enter");
            tmux.await("the filter keeps the startup line only", SHOWN,
                    s -> s.contains("filter: listening") && s.contains("shaper listening on") && !s.contains("path=/v1/held/"));

            tmux.keys("6");
            tmux.await("the Routes tab with per-route totals", SHOWN,
                    s -> s.contains("━━ Routes") && s.contains("✗ TO") && s.matches("(?s).*GET /v1/held/0\\s+1\\s+1\\s+0\\s+0\\s+0.*"));

            tmux.keys("1", "c");
            tmux.await("the reset confirmation", SHOWN, s -> s.contains("Reset the dashboard's counters"));
            tmux.keys("y");
            tmux.await("counters back at zero", SHOWN, s -> s.contains("counters reset") && s.matches("(?s).*Clean proxied\\s+0 .*"));

            tmux.keys("q");
            tmux.await("a clean shell after q", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
        }
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
