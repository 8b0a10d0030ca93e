package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.testing.ScriptedUpstream;

/**
 * Toasts on a 40×12 terminal: the circuit breaker opening (an upstream failure with a threshold of
 * one) shows a toast above the footer, the probe's success after the open timeout shows the
 * breaker closed, and each goes away after five seconds.
 */
// the first tmux test of a run compiles Shaper.java, minutes on a busy machine
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class ToastTest {
    private static final Duration SHOWN = Duration.ofSeconds(20);

    @Test
    void breakerTransitionsShowAsToastsThatExpire() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
            if (req.target().contains("fail")) {
                ex.respond(503, "down", "Content-Type: text/plain");
            } else {
                ex.respond(200, "ok", "Content-Type: text/plain");
            }
        });
             TmuxSession tmux = TmuxSession.start(40, 12)) {
            // wall time: the proxy runs in its own process under tmux, where no test clock reaches
            TuiProcess shaper = TuiProcess.start(tmux, "-upstream", up.url(), "-retry", "0", "-cb-threshold", "1",
                    "-cb-open-timeout", "1s");
            assertEquals(503, shaper.get("/v1/fail").get(60, TimeUnit.SECONDS).statusCode());
            String open = tmux.await("the breaker-open toast", SHOWN, s -> s.contains("circuit breaker open"));
            List<String> rows = TmuxSession.rows(open);
            assertTrue(rows.get(rows.size() - 2).contains("✗ default: circuit") && TmuxSession.lastRow(open).contains("q quit"),
                    "the toast sits right above the footer:\n" + open);

            tmux.await("the toast gone after five seconds", SHOWN, s -> !s.contains("circuit breaker open"));
            // the open timeout has passed: the next request is the probe, and its success closes the circuit
            assertEquals(200, shaper.get("/v1/ok").get(60, TimeUnit.SECONDS).statusCode());
            tmux.await("the breaker-closed toast", SHOWN, s -> s.contains("✓ default: circuit breaker closed"));
            tmux.await("that toast gone too", SHOWN, s -> !s.contains("circuit breaker closed"));

            tmux.keys("q");
            tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
        }
    }
}
