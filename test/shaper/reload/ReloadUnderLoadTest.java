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

/** A reload with 20 streams in flight and 20 requests queued loses none of them. */
class ReloadUnderLoadTest {
    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static String file(String upstream, int concurrency, String cooldown) {
        return "upstream: " + upstream + "\nlimit-all: true\nconcurrency: " + concurrency + "\nrelease-cooldown: " + cooldown
                + "\nqueue-timeout: 5m\nretry: 0\n";
    }

    @Test
    void streamsAndQueuedRequestsSurviveAReload() throws Exception {
        try (StreamingUpstream upstream = new StreamingUpstream("s");
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"), file(upstream.url(), 20, "0"))) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                all.add(client.sendAsync(HttpRequest.newBuilder(s.uri("/v1/messages/" + i)).header("Accept", "text/event-stream")
                        .timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            RunningShaper.await("20 streams open", BOUND, () -> upstream.open() == 20);
            RunningShaper.await("20 queued", BOUND, () -> s.server.journal("default").inFlight().size() >= 40);

            assertTrue(s.reloadWith(file(upstream.url(), 20, "5ms")), s.log());
            assertEquals(20, upstream.open(), "the streams in flight are untouched");

            upstream.end(1_000);
            for (CompletableFuture<HttpResponse<String>> r : all) {
                HttpResponse<String> res = r.get(120, TimeUnit.SECONDS);
                assertEquals(200, res.statusCode());
                assertEquals(StreamingUpstream.body("s"), res.body());
            }
            assertEquals(40, upstream.upstream.requests().size());
        }
    }
}
