package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.RunningShaper;

/**
 * -adaptive-concurrency over real sockets against ProbeServer's /capacity: a ceiling of 12 in front
 * of an upstream with room for 3 falls to about 3, then follows the capacity up to 8 and down to 2;
 * once settled the upstream's 429s stop.
 */
// Wall time on purpose: the limit learns from the upstream's real latency, measured on the proxy's clock.
class AdaptiveConcurrencyTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String BODY = "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static int limit(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().filter(l -> l.name().endsWith(" default"))
                .mapToInt(LimiterSnapshot::effectiveLimit).findFirst().orElseThrow();
    }

    private static void setCapacity(ProbeServer probe, int n) throws Exception {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(probe.uri("/__probe/capacity?n=" + n))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() == 200, r.body());
    }

    @Test
    void theLimitConvergesOnTheCapacityAndFollowsItWhenItMoves() throws Exception {
        ProbeConfig d = ProbeConfig.defaults(0);
        // The upstream's latency must dwarf the proxy's own time per request. With 40 ms the last await
        // timed out in two CI runs on a loaded machine: when the proxy's share of each request is large,
        // 3 slots need not put 3 requests at once into an upstream with room for 2, and the limit may
        // rightly stay at 3.
        ProbeServer probe = ProbeServer.start(d.withCapacity(3, 429, Duration.ofMillis(150)));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/capacity").toString(), "-limit-all",
                "-concurrency", "12", "-adaptive-concurrency", "-retry", "0", "-circuit-breaker=false", "-release-cooldown", "0", "-queue-timeout", "0")) {
            URI target = shaper.uri("/v1/messages");
            for (int i = 0; i < 12; i++) {
                clients.submit(() -> {
                    while (!stop.get()) {
                        int code = CLIENT.send(HttpRequest.newBuilder(target).timeout(BOUND).POST(HttpRequest.BodyPublishers.ofString(BODY))
                                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        (code == 200 ? ok : refused).incrementAndGet();
                    }
                    return null;
                });
            }
            RunningShaper.await("the limit falls to the capacity of 3", BOUND, () -> limit(shaper) <= 3);
            int refusedBefore = refused.get();
            int okBefore = ok.get();
            RunningShaper.await("40 more answers", BOUND, () -> ok.get() - okBefore >= 40);
            int newRefusals = refused.get() - refusedBefore;
            assertTrue(newRefusals * 10 <= ok.get() - okBefore, "settled, yet " + newRefusals + " refusals in " + (ok.get() - okBefore));
            assertTrue(shaper.stdout().contains("limit provider=default limiter=default 12 -> "), shaper.stdout());

            setCapacity(probe, 8);
            RunningShaper.await("the limit climbs towards 8", BOUND, () -> limit(shaper) >= 6);
            setCapacity(probe, 2);
            RunningShaper.await("the limit falls to 2", BOUND, () -> limit(shaper) <= 2);
        } finally {
            stop.set(true);
            clients.shutdownNow();
            clients.awaitTermination(30, TimeUnit.SECONDS);
            probe.stop();
        }
    }
}
