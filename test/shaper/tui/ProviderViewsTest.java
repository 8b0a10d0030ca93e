package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.testing.ScriptedUpstream;

/**
 * What a person checks per provider: the Logs tab shows the provider's own lines (and the server's),
 * not the other provider's; the Network tab tells two requests to one endpoint apart by the model
 * they name; a request's detail shows what went upstream beside what the client sent: the injected
 * credential's header by name with its value hidden, and the client headers that were removed.
 */
// the first tmux test of a run compiles Shaper.java, minutes on a busy machine
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class ProviderViewsTest {
    private static final Duration SHOWN = Duration.ofSeconds(20);
    private static final String SECRET = "sk-upstream-secret-4711";

    @Test
    void logsNetworkNamesAndUpstreamHeadersPerProvider() throws Exception {
        try (ScriptedUpstream alpha = ScriptedUpstream.start((req, ex) -> ex.respond(200, "{\"ok\":true}", "Content-Type: application/json"));
             ScriptedUpstream beta = ScriptedUpstream.ok("from beta");
             TmuxSession tmux = TmuxSession.start(140, 45)) {
            TuiProcess shaper = TuiProcess.startWith(tmux, List.of("TUI_TEST_KEY=" + SECRET),
                    "--provider=alpha", "-upstream", alpha.url(), "-prefix", "/alpha", "-auth-source", "env:TUI_TEST_KEY",
                    "-auth-mode", "x-api-key",
                    "--provider=beta", "-upstream", beta.url(), "-prefix", "/beta");
            for (String model : List.of("model-one", "model-two")) {
                assertEquals(200, shaper.send("POST", "/alpha/v1/messages", "{\"model\":\"" + model + "\",\"max_tokens\":1}",
                        "Content-Type", "application/json", "Authorization", "Bearer client-token", "X-Client-Note", "kept")
                        .get(60, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(200, shaper.get("/beta/v1/only-beta").get(60, TimeUnit.SECONDS).statusCode());
            assertEquals(SECRET, alpha.requests().getLast().header("x-api-key"), "the credential went upstream");

            tmux.keys("4");
            String logs = tmux.await("alpha's log lines", SHOWN, s -> s.contains("━━ Logs · alpha") && s.contains("provider=alpha"));
            assertFalse(logs.contains("provider=beta") || logs.contains("/v1/only-beta"), "beta's lines on alpha's Logs tab:\n" + logs);
            assertTrue(logs.contains("listening"), "the server's own lines stay:\n" + logs);
            tmux.keys("Tab");
            String betaLogs = tmux.await("beta's log lines", SHOWN, s -> s.contains("━━ Logs · beta") && s.contains("/v1/only-beta"));
            assertFalse(betaLogs.contains("provider=alpha"), betaLogs);

            tmux.keys("BTab", "3");
            String network = tmux.await("alpha's Network tab", SHOWN, s -> s.contains("━━ Network · alpha")
                    && s.contains("messages · model-one") && s.contains("messages · model-two"));
            assertFalse(network.contains(SECRET), network);

            tmux.keys("Enter");
            String detail = tmux.await("the detail with the upstream headers", SHOWN,
                    s -> s.contains("Request headers (sent upstream)") && s.contains("removed:"));
            assertTrue(detail.matches("(?s).*[Xx]-[Aa]pi-[Kk]ey: \\(set by the proxy; value hidden\\).*"), detail);
            assertTrue(detail.matches("(?s).*removed: [^\\n]*Authorization.*"), "the client's credential is listed as removed:\n" + detail);
            assertTrue(detail.contains("X-Client-Note: kept"), detail);
            assertFalse(detail.contains(SECRET), "the injected secret on screen:\n" + detail);
            tmux.keys("Escape");

            tmux.keys("q");
            tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
        }
    }
}
