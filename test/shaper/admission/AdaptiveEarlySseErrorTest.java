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
 * -adaptive-concurrency against an upstream of capacity 4 that answers overload as HTTP 200 whose
 * event stream opens with an error frame, with {@code -retry 0} (so no attempt is read ahead for a
 * retry): the error is read as the stream is relayed and still lowers the limit, from 24 to about
 * the capacity, and the share of overload answers falls with it.
 */
class AdaptiveEarlySseErrorTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final String BODY = "{\"model\":\"m\",\"max_tokens\":5,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static int limit(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().filter(l -> l.name().endsWith(" default"))
                .mapToInt(LimiterSnapshot::effectiveLimit).findFirst().orElseThrow();
    }

    @Test
    void anEarlySseErrorLowersTheLimitWhenNoRetryIsPossible() throws Exception {
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0).withCapacity(4, 200, Duration.ofMillis(150)));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger overloaded = new AtomicInteger();
        ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/capacity").toString(), "-limit-all",
                "-concurrency", "24", "-adaptive-concurrency", "-retry", "0", "-circuit-breaker=false", "-release-cooldown", "0",
                "-queue-timeout", "0")) {
            URI target = shaper.uri("/v1/messages");
            for (int i = 0; i < 20; i++) {
                clients.submit(() -> {
                    while (!stop.get()) {
                        String body = CLIENT.send(HttpRequest.newBuilder(target).timeout(BOUND).POST(HttpRequest.BodyPublishers.ofString(BODY))
                                .build(), HttpResponse.BodyHandlers.ofString()).body();
                        (body.contains("event: error") ? overloaded : ok).incrementAndGet();
                    }
                    return null;
                });
            }
            RunningShaper.await("the limit falls from 24 towards the capacity of 4", BOUND, () -> limit(shaper) <= 5);
            assertTrue(shaper.stdout().contains("(early SSE error"), "the limit heard the early error: " + shaper.stdout());
            int okBefore = ok.get();
            int overloadedBefore = overloaded.get();
            RunningShaper.await("40 more answers", BOUND, () -> ok.get() - okBefore >= 40);
            int newOverloads = overloaded.get() - overloadedBefore;
            int served = ok.get() - okBefore;
            assertTrue(newOverloads < served, "settled, yet " + newOverloads + " overload answers beside " + served + " served");
        } finally {
            stop.set(true);
            clients.shutdownNow();
            clients.awaitTermination(30, TimeUnit.SECONDS);
            probe.stop();
        }
    }
}
