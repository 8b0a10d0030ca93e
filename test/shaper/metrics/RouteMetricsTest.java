package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The routed mount's series: each finished routed exchange counts once under its route and the
 * provider that served it, each move once under route, from, to and reason; and the provider it
 * left shows nothing active or queued.
 */
class RouteMetricsTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static int post(RunningShaper s, String model) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(s.uri("/r/v1/messages")).timeout(BOUND)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[]}")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static double active(RunningShaper s, String provider) {
        try {
            return Scrape.of(s).value("shaper_active", "provider", provider);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void routeRequestsAndFallbacksAreCountedAndTheLeftTargetHoldsNothing() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> ex.respond(req.bodyText().contains("busy") ? 429 : 200, "{}"));
             ScriptedUpstream b = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-bind", "127.0.0.1:0", "-metrics-bind", "127.0.0.1:0", "-route-prefix", "/r",
                     "-model-route", "claude-*=a,b", "-model-route", "gpt-*=b",
                     "--provider=a", "-upstream", a.url(), "-prefix", "/a", "-retry", "0", "-limit-all",
                     "--provider=b", "-upstream", b.url(), "-prefix", "/b", "-retry", "0")) {
            assertEquals(200, post(shaper, "claude-x"));
            assertEquals(200, post(shaper, "claude-busy"));
            assertEquals(200, post(shaper, "gpt-5"));
            RunningShaper.await("three records", BOUND,
                    () -> shaper.server().journal("a").recent().size() + shaper.server().journal("b").recent().size() == 3);
            Scrape s = Scrape.of(shaper);
            assertEquals(1, s.value("shaper_route_requests_total", "route", "claude-*", "target", "a"));
            assertEquals(1, s.value("shaper_route_requests_total", "route", "claude-*", "target", "b"));
            assertEquals(1, s.value("shaper_route_requests_total", "route", "gpt-*", "target", "b"));
            assertEquals(1, s.value("shaper_fallbacks_total", "route", "claude-*", "from", "a", "to", "b", "reason", "429"));
            RunningShaper.await("nothing active at a", BOUND, () -> active(shaper, "a") == 0);
            assertEquals(0, Scrape.of(shaper).value("shaper_queued", "provider", "a"));
        }
    }
}
