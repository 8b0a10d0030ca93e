package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Providers added to the file serve at once; removed ones answer 404 to new requests while their
 * streams finish; a changed upstream takes new requests while the old one finishes its streams.
 */
class ReloadProvidersTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static String entry(String name, String upstream) {
        return "  - name: " + name + "\n    upstream: " + upstream + "\n    prefix: /" + name + "\n";
    }

    private static HttpResponse<String> get(LiveShaper s, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(s.uri(path)).timeout(BOUND).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static CompletableFuture<HttpResponse<String>> stream(LiveShaper s, String path) {
        return HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(s.uri(path)).header("Accept", "text/event-stream")
                .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void addedServesRemovedFinishesItsStreamsChangedUpstreamKeepsInFlightOnTheOld() throws Exception {
        try (StreamingUpstream a = new StreamingUpstream("a");
             StreamingUpstream b = new StreamingUpstream("b");
             StreamingUpstream a2 = new StreamingUpstream("a2");
             ScriptedUpstream c = ScriptedUpstream.ok("c");
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"), "providers:\n" + entry("a", a.url()) + entry("b", b.url()))) {
            CompletableFuture<HttpResponse<String>> onA = stream(s, "/a/v1/messages");
            CompletableFuture<HttpResponse<String>> onB = stream(s, "/b/v1/messages");
            RunningShaper.await("both streams open", BOUND, () -> a.open() == 1 && b.open() == 1);

            assertTrue(s.reloadWith("providers:\n" + entry("a", a2.url()) + entry("c", c.url())), s.log());
            s.awaitLog("providers added [c], removed [b], changed [a]");

            assertEquals("c", get(s, "/c/v1/models").body(), "an added provider serves at once");
            HttpResponse<String> gone = get(s, "/b/v1/models");
            assertEquals(404, gone.statusCode(), "a removed provider takes no new request");
            CompletableFuture<HttpResponse<String>> onA2 = stream(s, "/a/v1/messages");
            RunningShaper.await("the new request on the new upstream", BOUND, () -> a2.open() == 1);
            assertEquals(1, a.open(), "the stream in flight stays on the old upstream");

            a.end(1);
            b.end(1);
            a2.end(1);
            assertEquals(StreamingUpstream.body("a"), onA.get(60, TimeUnit.SECONDS).body());
            assertEquals(StreamingUpstream.body("b"), onB.get(60, TimeUnit.SECONDS).body(), "the removed provider's stream completes");
            assertEquals(StreamingUpstream.body("a2"), onA2.get(60, TimeUnit.SECONDS).body());
            assertEquals(1, b.upstream.requests().size());
            assertEquals(2, s.server.live().status().generation());
        }
    }
}
