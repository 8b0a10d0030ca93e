package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.breaker.BreakerState;
import shaper.limit.ManualTimeSource;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A provider's circuit breaker survives a reload that leaves its {@code cb-*} settings alone (an open
 * circuit stays open, with the same wait before its probe); a reload that changes one of them starts
 * a fresh, closed breaker. The proxy runs on a manual clock, so "still open" never depends on timing.
 */
class ReloadKeepsBreakerTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private static String file(String upstream, int concurrency, String openTimeout) {
        return "upstream: " + upstream + "\nconcurrency: " + concurrency + "\nretry: 0\nrelease-cooldown: 0\nfailure-hold: 0\n"
                + "cb-threshold: 1\ncb-open-timeout: " + openTimeout + "\ncb-max-open-timeout: 4h\ncb-penalty: 1ms\ncb-max-penalty: 1ms\n";
    }

    private static HttpResponse<String> post(LiveShaper s) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(s.uri("/v1/messages")).timeout(BOUND).POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static BreakerState state(LiveShaper s) {
        return s.server.breaker("default").state();
    }

    @Test
    void anOpenCircuitStaysOpenAcrossAReloadUnlessACbSettingChanged() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        boolean[] failing = {true};
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                calls.incrementAndGet();
                ex.respond(failing[0] ? 500 : 200, "{}");
            });
             LiveShaper s = LiveShaper.start(time, dir.resolve("shaper.yaml"), file(up.url(), 4, "1h"))) {
            assertEquals(500, post(s).statusCode());
            RunningShaper.await("circuit open", BOUND, () -> state(s) == BreakerState.OPEN);
            failing[0] = false;

            assertTrue(s.reloadWith(file(up.url(), 2, "1h")), s.log());
            assertEquals(BreakerState.OPEN, state(s), "a reload that changes no cb-* setting keeps the breaker");
            assertEquals(Duration.ofHours(1), s.server.breaker("default").nextProbeIn(), "with its wait before the probe");
            HttpResponse<String> refused = post(s);
            assertEquals(503, refused.statusCode());
            assertTrue(refused.body().contains("circuit open"), refused.body());
            assertEquals(1, calls.get(), "the open circuit kept the upstream untouched");

            assertTrue(s.reloadWith(file(up.url(), 2, "2h")), s.log());
            assertEquals(BreakerState.CLOSED, state(s), "a changed cb-open-timeout starts a fresh breaker");
            assertEquals(200, post(s).statusCode());
            assertEquals(2, calls.get());
        }
    }
}
