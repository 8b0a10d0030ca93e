package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RunningShaper;

/**
 * A reload matches route limiters by their pattern or {@code @group}, not by the line that declared
 * them: a reload that reorders the patterns, changes a group's members or adds a route keeps the
 * running limiters with their slots in flight and their waiters; one that changes a limit resizes the
 * same limiter, so its waiters are admitted at once. Seen at the upstream, which counts what it holds.
 */
class ReloadMatchesLimitersTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private static String file(String upstream, String... limits) {
        return "upstream: " + upstream + "\nlimit: [\"" + String.join("\", \"", limits) + "\"]"
                + "\nrelease-cooldown: 0\nqueue-timeout: 2m\ncircuit-breaker: false\n";
    }

    private static CompletableFuture<HttpResponse<String>> post(LiveShaper s, String path) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(s.uri(path)).timeout(Duration.ofMinutes(2))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int waiters(LiveShaper s) {
        return s.server.limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    @Test
    void aKeptRouteKeepsItsSlotsAndWaitersAndAChangedLimitResizesIt() throws Exception {
        try (GatedUpstream upstream = new GatedUpstream("ok");
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"),
                     file(upstream.url(), "POST /v1/a:1", "POST /v1/b:1@g", "POST /v1/c@g"))) {
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (String path : List.of("/v1/a", "/v1/a", "/v1/c", "/v1/c")) {
                all.add(post(s, path));
            }
            RunningShaper.await("one of each limiter at the upstream, one of each waiting", BOUND,
                    () -> upstream.holding() == 2 && waiters(s) == 2);

            // reordered, the group's members changed (b dropped, c now declares the limit), a route added
            assertTrue(s.reloadWith(file(upstream.url(), "POST /v1/d:5", "POST /v1/c:1@g", "POST /v1/a:1")), s.log());
            all.add(post(s, "/v1/a"));
            all.add(post(s, "/v1/c"));
            RunningShaper.await("the new requests queue behind the kept slots", BOUND, () -> waiters(s) == 4);
            assertEquals(2, upstream.holding(), "the slots in flight still count against the kept limiters");

            // the same patterns with larger limits: the same limiters, resized, admit their waiters at once
            upstream.resetPeak();
            assertTrue(s.reloadWith(file(upstream.url(), "POST /v1/a:3", "POST /v1/c:3@g")), s.log());
            RunningShaper.await("every waiter admitted by the resized limiters", BOUND, () -> upstream.holding() == 6 && waiters(s) == 0);

            upstream.release(100);
            for (CompletableFuture<HttpResponse<String>> r : all) {
                assertEquals(200, r.get(60, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(6, upstream.peak(), "never more than the two limits of 3");
            assertEquals(3, s.server.live().status().generation());
        }
    }
}
