package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.budget.ProviderTokens;
import shaper.ratelimit.RateLimitKind;
import shaper.testing.ScriptedUpstream;

/**
 * A reload is no fresh minute: a budget whose flags did not change keeps its level (and the
 * provider its token counters); one whose flags changed starts anew from them.
 */
class ReloadBudgetTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String BODY = "{\"model\":\"m\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @TempDir
    Path dir;

    private static String file(String upstream, int rpm, String queueTimeout) {
        return "upstream: " + upstream + "\nrpm: " + rpm + "\nqueue-timeout: " + queueTimeout + "\ncircuit-breaker: false\n";
    }

    private static ProviderTokens tokens(LiveShaper s) {
        return s.server.assembly("default").tokens();
    }

    private static double requests(LiveShaper s) {
        return tokens(s).budget().orElseThrow().levels().get(RateLimitKind.REQUESTS);
    }

    @Test
    void anUnchangedBudgetKeepsItsLevelAcrossAReloadAndAChangedOneStartsFromItsNewFlags() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"), file(up.url(), 10, "30s"))) {
            HttpClient client = HttpClient.newHttpClient();
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(s.uri("/v1/messages")).timeout(BOUND)
                        .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
            }
            // an exchange is counted when it settles, just after its client has the answer
            shaper.testing.RunningShaper.await("the four exchanges counted", BOUND,
                    () -> tokens(s).counters().requests().stream().mapToLong(c -> c.value()).sum() == 4);
            ProviderTokens before = tokens(s);
            assertTrue(requests(s) < 7, "4 of 10 spent: " + requests(s));

            assertTrue(s.reloadWith(file(up.url(), 10, "40s")), s.log());
            assertEquals(Duration.ofSeconds(40), s.server.provider("default").admission().queueTimeout(), "the reload was applied");
            assertSame(before, tokens(s), "the budget's flags did not change: the same budget goes on");
            assertTrue(requests(s) < 7, "its level is kept, not refilled by the reload: " + requests(s));
            assertEquals(4, tokens(s).counters().requests().stream().mapToLong(c -> c.value()).sum(),
                    "the token counters go on");

            assertTrue(s.reloadWith(file(up.url(), 20, "40s")), s.log());
            assertNotSame(before, tokens(s), "a changed budget is built from its new flags");
            assertEquals(20, requests(s), 0.5, "full at its new size");
        }
    }
}
