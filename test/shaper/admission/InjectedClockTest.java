package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.breaker.BreakerState;
import shaper.limit.LimiterSnapshot;
import shaper.limit.ManualTimeSource;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The proxy runs on the one clock it is given: a slot's release cooldown, a failure hold and the
 * breaker's open wait end when the test moves that clock, not when wall time passes.
 */
class InjectedClockTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static int post(RunningShaper s) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(s.uri("/v1/messages")).timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static LimiterSnapshot pool(RunningShaper s) {
        return s.server().limiters("default").stream().filter(l -> l.name().endsWith(" default")).findFirst().orElseThrow();
    }

    @Test
    void cooldownsHoldsAndTheOpenWaitFollowTheInjectedClock() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        boolean[] failing = {false};
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(failing[0] ? 500 : 200, "{}"));
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-limit-all", "-release-cooldown", "1h",
                     "-failure-hold", "0", "-retry", "0", "-cb-threshold", "1", "-cb-open-timeout", "1h", "-cb-max-open-timeout", "2h",
                     "-cb-penalty", "1ms", "-cb-max-penalty", "1ms")) {
            assertEquals(200, post(shaper));
            RunningShaper.await("the released slot cooling", BOUND, () -> pool(shaper).cooling() == 1);
            time.advance(Duration.ofMinutes(59));
            assertEquals(1, pool(shaper).cooling(), "an hour's cooldown is not over after 59 minutes of the proxy's clock");
            time.advance(Duration.ofMinutes(1));
            RunningShaper.await("the slot free again", BOUND, () -> pool(shaper).cooling() == 0);

            failing[0] = true;
            assertEquals(500, post(shaper));
            RunningShaper.await("circuit open", BOUND, () -> shaper.server().breaker("default").state() == BreakerState.OPEN);
            assertEquals(Duration.ofHours(1), shaper.server().breaker("default").nextProbeIn(), "no wall time counts");
            time.advance(Duration.ofHours(1));
            failing[0] = false;
            assertEquals(200, post(shaper), "the probe goes through once the proxy's clock says the wait is over");
            RunningShaper.await("circuit closed", BOUND, () -> shaper.server().breaker("default").state() == BreakerState.CLOSED);
        }
    }
}
