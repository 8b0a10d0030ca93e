package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;

/**
 * Token economics on the dashboard, under tmux at 120×40, in front of ProbeServer's rate-limited
 * Anthropic account: tokens per minute, the per-model table, the limits the upstream's headers
 * stated, and a request paced by {@code -itpm} shown as waiting for tokens (input).
 */
// the first tmux test of a run compiles Shaper.java, minutes on a busy machine
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class TuiTokensTest {
    private static final Duration SHOWN = Duration.ofSeconds(20);
    /** About 500 tokens at four characters a token: more than the whole -itpm bucket of 100. */
    private static final String BODY = "{\"model\":\"claude-tui\",\"max_tokens\":200,\"messages\":[{\"role\":\"user\",\"content\":\""
            + "tokens ".repeat(290) + "\"}]}";

    @Test
    void showsTokensPerMinuteModelsUpstreamLimitsAndATokenWait() throws Exception {
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0));
        try (TmuxSession tmux = TmuxSession.start(120, 40)) {
            TuiProcess shaper = TuiProcess.start(tmux, "-upstream", probe.uri("/ratelimited").toString(), "-retry", "0",
                    "-itpm", "100");
            // a request larger than the whole bucket is admitted while the bucket is full, and leaves it in debt
            HttpResponse<String> first = shaper.send("POST", "/v1/messages", BODY, "Content-Type", "application/json")
                    .get(60, TimeUnit.SECONDS);
            assertEquals(200, first.statusCode(), first.body());
            String dash = tmux.await("tokens per minute on the Dashboard", SHOWN, s -> s.matches("(?s).*\\s[1-9][0-9.]*k? tok/min \\(in .*"));
            assertTrue(dash.contains("Throughput (10s)"), dash);

            CompletableFuture<HttpResponse<String>> paced = shaper.send("POST", "/v1/messages", BODY, "Content-Type", "application/json");
            tmux.await("the paced request waiting for tokens", SHOWN,
                    s -> s.matches("(?s).*○ queued\\s+limited\\s+POST\\s+\\S+\\s+/v1/messages  waiting for tokens \\(input\\).*"));

            tmux.keys("7");
            String tokens = tmux.await("the Tokens tab", SHOWN, s -> s.contains("━━ Tokens") && s.contains("claude-tui")
                    && s.contains("of 50 left") && s.contains("1 waiting for tokens"));
            assertTrue(tokens.matches("(?s).*claude-tui\\s+1\\s+\\d+\\s+\\d+\\s+0\\s+0.*"), "one request of claude-tui, no cache:\n" + tokens);
            assertTrue(tokens.matches("(?s).*requests\\s+49 of 50 left\\s+reset in .*"), "the upstream's requests limit:\n" + tokens);
            assertTrue(tokens.matches("(?s).*input\\s+\\S+ of 30\\.0k left.*"), "the upstream's input limit:\n" + tokens);
            assertTrue(tokens.contains("Budget (pacing)"), tokens);

            tmux.keys("q");
            assertEquals(504, paced.get(60, TimeUnit.SECONDS).statusCode(), "a stop answers the token waiter as a queue timeout");
            tmux.await("exit 0", SHOWN, s -> s.contains(TuiProcess.EXIT_MARK + "0"));
        } finally {
            probe.stop();
        }
    }
}
