package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.Codings;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The large-request gate judges a coded body by its decoded size: a few hundred compressed bytes
 * that stand for 40 KB of prompt take a gate permit, a decompression bomb too (counted only up to
 * the threshold), small coded bodies pass beside them; every body still reaches the upstream as
 * the client sent it.
 */
class CodedGateTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void aCompressedLargeBodyIsGatedByItsDecodedSize() throws Exception {
        byte[] largeGzip = Codings.gzip(("{\"pad\":\"" + "x".repeat(40_000) + "\"}").getBytes(StandardCharsets.UTF_8));
        byte[] bombZstd = Codings.zstd(Codings.zeros(64 << 20));
        byte[] smallGzip = Codings.gzip("{\"small\":1}".getBytes(StandardCharsets.UTF_8));
        byte[] smallBr = Codings.brotli("{\"small\":2}".getBytes(StandardCharsets.UTF_8));
        assertTrue(largeGzip.length < 4000 && bombZstd.length < 4000 * 1024, "the large ones are small on the wire: " + largeGzip.length);
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (!release.await(20, TimeUnit.SECONDS)) {
                    throw new java.io.IOException("never released");
                }
                ex.respond(200, "{\"ok\":true}", "Content-Type: application/json");
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-big-ctx-tokens", "1000", "-big-ctx-concurrency", "1",
                     "-concurrency", "10", "-release-cooldown", "0")) {
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            all.add(send(shaper, largeGzip, "gzip"));
            RunningShaper.await("the first large request at the upstream", BOUND, () -> up.inFlight() == 1);
            all.add(send(shaper, bombZstd, "zstd"));
            RunningShaper.await("the bomb waiting at the gate", BOUND, () -> gate(shaper).waiters() == 1);
            all.add(send(shaper, smallGzip, "gzip"));
            all.add(send(shaper, smallBr, "br"));
            RunningShaper.await("1 large + 2 small at the upstream, 1 large at the gate", BOUND,
                    () -> up.inFlight() == 3 && gate(shaper).waiters() == 1);
            release.countDown();
            for (var f : all) {
                assertEquals(200, f.get(20, TimeUnit.SECONDS).statusCode());
            }
            List<RecordedRequest> seen = up.requests();
            assertEquals(4, seen.size());
            assertArrayEquals(largeGzip, seen.get(0).body());
            assertArrayEquals(bombZstd, seen.get(3).body(), "the bomb went last, after the gate, byte for byte");
            assertEquals(List.of("zstd"), seen.get(3).values("Content-Encoding"));
            // the permit is given back once the proxy has finished the exchange, just after the client has its answer
            RunningShaper.await("the gate permit given back", BOUND, () -> gate(shaper).inUse() == 0);
        }
    }

    private static CompletableFuture<HttpResponse<String>> send(RunningShaper shaper, byte[] body, String coding) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages")).header("Content-Type", "application/json")
                .header("Content-Encoding", coding).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static LimiterSnapshot gate(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().filter(s -> s.name().endsWith("gate")).findFirst().orElseThrow();
    }
}
