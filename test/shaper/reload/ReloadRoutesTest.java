package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Routes reload live like providers: new requests follow the new routes, an exchange in flight
 * finishes on its old target, health shows the routes in force, and a file whose routes name no
 * provider is refused with the running routes kept.
 */
class ReloadRoutesTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private static String file(String route, String upA, String upB) {
        return "route-prefix: /r\nmodel-route:\n  - \"" + route + "\"\nproviders:\n"
                + "  - name: a\n    upstream: " + upA + "\n    prefix: /a\n"
                + "  - name: b\n    upstream: " + upB + "\n    prefix: /b\n";
    }

    private static CompletableFuture<HttpResponse<String>> ask(LiveShaper s, String model) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(s.uri("/r/v1/messages")).timeout(BOUND)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[]}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void newRequestsFollowTheReloadedRoutesWhileInFlightOnesFinishWhereTheyStarted() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> {
                 if (req.bodyText().contains("hold") && !gate.await(20, TimeUnit.SECONDS)) {
                     throw new IOException("gate never opened");
                 }
                 ex.respond(200, "a");
             });
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"), file("claude-*=a", "" + a.url(), b.url()))) {
            assertEquals("a", ask(s, "claude-x").get(20, TimeUnit.SECONDS).body());
            CompletableFuture<HttpResponse<String>> inFlight = ask(s, "claude-hold");
            RunningShaper.await("the held request at a", BOUND, () -> a.inFlight() == 1);

            assertTrue(s.reloadWith(file("claude-*=b", a.url(), b.url())), s.log());
            assertEquals("b", ask(s, "claude-x").get(20, TimeUnit.SECONDS).body(), "the new route in force");
            JsonNode routing = new ObjectMapper().readTree(CLIENT.send(HttpRequest.newBuilder(s.uri("/__shaper/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).path("routing");
            assertEquals("/r", routing.path("prefix").asText());
            assertEquals("claude-*", routing.path("routes").path(0).path("pattern").asText());
            assertEquals("b", routing.path("routes").path(0).path("targets").path(0).asText());

            gate.countDown();
            assertEquals("a", inFlight.get(20, TimeUnit.SECONDS).body(), "the exchange in flight finished on its old target");

            assertFalse(s.reloadWith(file("claude-*=gone", a.url(), b.url())), "a route to no provider is refused");
            assertEquals("b", ask(s, "claude-x").get(20, TimeUnit.SECONDS).body(), "the running routes stay");
        }
    }
}
