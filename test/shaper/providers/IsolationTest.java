package shaper.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** One provider's queue or outage never delays or fails another provider's requests. */
class IsolationTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final Duration PROMPT = Duration.ofSeconds(10);

    private static HttpRequest post(RunningShaper shaper, String path) {
        return HttpRequest.newBuilder(shaper.uri(path)).timeout(PROMPT).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
    }

    @Test
    void oneProvidersFullQueueNeverDelaysAnother() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedUpstream slow = ScriptedUpstream.start((req, ex) -> {
                release.await(30, TimeUnit.SECONDS);
                ex.respond(200, "slow");
            });
             ScriptedUpstream fast = ScriptedUpstream.ok("fast");
             RunningShaper shaper = RunningShaper.start("-bind", "127.0.0.1:0",
                     "--provider=a", "-upstream", slow.url(), "-prefix", "/a", "-limit-all", "-concurrency", "1", "-release-cooldown", "0",
                     "--provider=b", "-upstream", fast.url(), "-prefix", "/b", "-limit-all", "-concurrency", "1", "-release-cooldown", "0")) {
            CompletableFuture<HttpResponse<String>> held = CLIENT.sendAsync(post(shaper, "/a/v1/messages"), HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> queued = CLIENT.sendAsync(post(shaper, "/a/v1/messages"), HttpResponse.BodyHandlers.ofString());
            RunningShaper.await("a's slot held and one request queued behind it", PROMPT, () -> slow.inFlight() == 1
                    && shaper.server().limiters("a").stream().mapToInt(s -> s.waiters()).sum() == 1);

            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = CLIENT.send(post(shaper, "/b/v1/messages"), HttpResponse.BodyHandlers.ofString());
                assertEquals("fast", r.body(), "b answers while a is saturated");
            }
            assertEquals(0, shaper.server().limiters("b").stream().mapToInt(s -> s.waiters()).sum());
            assertEquals(1, slow.inFlight(), "a is still held: b never waited for it");
            assertEquals(false, queued.isDone());

            release.countDown();
            assertEquals("slow", held.get(10, TimeUnit.SECONDS).body());
            assertEquals("slow", queued.get(10, TimeUnit.SECONDS).body());
        } finally {
            release.countDown();
        }
    }

    @Test
    void oneProvidersDeadUpstreamDoesNotAffectAnother() throws Exception {
        int dead = deadPort();
        try (ScriptedUpstream alive = ScriptedUpstream.ok("alive");
             RunningShaper shaper = RunningShaper.start("-bind", "127.0.0.1:0",
                     "--provider=down", "-upstream", "http://127.0.0.1:" + dead, "-prefix", "/down", "-failure-hold", "0",
                     "-release-cooldown", "0", "-retry", "0", "-cb-threshold", "3",
                     "--provider=up", "-upstream", alive.url(), "-prefix", "/up")) {
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> bad = CLIENT.send(post(shaper, "/down/v1/messages"), HttpResponse.BodyHandlers.ofString());
                assertEquals(i < 3 ? 502 : 503, bad.statusCode(), "502 until down's own breaker opens, then 503");
                HttpResponse<String> good = CLIENT.send(post(shaper, "/up/v1/messages"), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, good.statusCode());
                assertEquals("alive", good.body());
            }
            // counted when each record is published, just after its answer went out
            RunningShaper.await("all twelve counted", java.time.Duration.ofSeconds(5),
                    () -> shaper.server().counters("down").snapshot().failed() == 6 && shaper.server().counters("up").snapshot().status(2) == 6);
            assertEquals(0, shaper.server().counters("up").snapshot().failed());
        }
    }

    private static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
