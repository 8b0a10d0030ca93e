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

import shaper.testing.RunningShaper;

/**
 * Limits are resized in place: a smaller limit admits nobody new until the requests in flight drop
 * below it; a larger one admits the waiters at once. Seen at the upstream, which counts what it holds.
 */
class ReloadLimitsTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static String file(String upstream, int concurrency) {
        return "upstream: " + upstream + "\nlimit-all: true\nconcurrency: " + concurrency
                + "\nrelease-cooldown: 0\nqueue-timeout: 2m\ncircuit-breaker: false\n";
    }

    @Test
    void shrinkingAndRaisingTheLimitIsSeenAtTheUpstream() throws Exception {
        try (GatedUpstream upstream = new GatedUpstream("ok");
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"), file(upstream.url(), 4))) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                responses.add(client.sendAsync(HttpRequest.newBuilder(s.uri("/v1/x/" + i)).timeout(Duration.ofMinutes(2)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            RunningShaper.await("4 requests at the upstream", BOUND, () -> upstream.holding() == 4);
            assertTrue(s.reloadWith(file(upstream.url(), 2)), s.log());

            upstream.resetPeak();
            upstream.release(4);
            RunningShaper.await("the 4 first requests answered", BOUND, () -> responses.stream().filter(CompletableFuture::isDone).count() == 4);
            RunningShaper.await("2 waiters admitted under the new limit", BOUND, () -> upstream.holding() == 2);
            assertTrue(upstream.peak() <= 4, "never more than were already in flight");
            upstream.resetPeak();
            upstream.release(2);
            RunningShaper.await("6 answered", BOUND, () -> responses.stream().filter(CompletableFuture::isDone).count() == 6);
            RunningShaper.await("the next 2 admitted", BOUND, () -> upstream.holding() == 2);
            assertEquals(2, upstream.peak(), "a limit of 2 admits 2 at a time");

            assertTrue(s.reloadWith(file(upstream.url(), 6)), s.log());
            RunningShaper.await("the raised limit admits 4 more waiters at once", BOUND, () -> upstream.holding() == 6);
            upstream.release(100);
            for (CompletableFuture<HttpResponse<String>> r : responses) {
                HttpResponse<String> res = r.get(60, TimeUnit.SECONDS);
                assertEquals(200, res.statusCode());
                assertEquals("ok", res.body());
            }
            assertEquals(3, s.server.live().status().generation());
        }
    }
}
