package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The shared-limit burst every kind of Redis must hold: three instances with {@code -concurrency 2}
 * sharing one limit, a burst spread over all three in front of one upstream that records its peak.
 * Three in-process instances stand in for three processes (each has its own link, pool,
 * subscriber connection and instance id; {@link ClusterBudgetTest} runs real processes on plain Redis).
 */
final class SharedLimitBurst {
    static final Duration BOUND = Duration.ofSeconds(30);
    static final int LIMIT = 2;

    private SharedLimitBurst() {
    }

    /** An upstream that takes a little time per request, so the burst overlaps. */
    static ScriptedUpstream slowUpstream() {
        return ScriptedUpstream.start((req, ex) -> {
            Thread.sleep(25);
            ex.respond(200, "ok " + req.target(), "Content-Type: text/plain");
        });
    }

    /** Three connected instances of {@code backend} (the -limiter-backend flags and any others). */
    static List<RunningShaper> instances(ScriptedUpstream up, String... backendFlags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", up.url(), "-limit-all", "-concurrency", Integer.toString(LIMIT),
                "-release-cooldown", "0", "-queue-timeout", "120s",
                // generous: a loaded test machine must not trip the fallback by a scheduling stall
                "-limiter-redis-timeout", "10s"));
        argv.addAll(List.of(backendFlags));
        List<RunningShaper> shapers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            shapers.add(RunningShaper.start(argv.toArray(String[]::new)));
        }
        for (RunningShaper s : shapers) {
            RunningShaper.await("cluster link connected", BOUND, () -> !s.logLines("cluster limiter: connected").isEmpty());
        }
        return shapers;
    }

    /** Fires {@code n} requests spread over the instances (in shuffled order) at once. */
    static List<CompletableFuture<Integer>> fire(List<RunningShaper> shapers, int n, String tag) {
        List<URI> uris = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            uris.add(shapers.get(i % shapers.size()).uri("/v1/" + tag + "/" + i));
        }
        Collections.shuffle(uris);
        return uris.stream().map(u -> Clients.getAsync(u).thenApply(r -> r.statusCode())).toList();
    }

    /** Every request answered 200. */
    static void assertAllOk(List<CompletableFuture<Integer>> burst) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<Integer> f : burst) {
            statuses.add(f.get(Clients.REQUEST_BOUND.toSeconds() * 2, java.util.concurrent.TimeUnit.SECONDS));
        }
        assertEquals(Collections.nCopies(burst.size(), 200), statuses, "every request of the burst completes");
    }

    /** The whole check on a quiet link: every request completes, the upstream never saw more than the limit, both slots were used, no fallback. */
    static void run(ScriptedUpstream up, List<RunningShaper> shapers, int n) throws Exception {
        assertAllOk(fire(shapers, n, "burst"));
        for (RunningShaper s : shapers) {
            assertTrue(s.logLines("unreachable").isEmpty(), "no instance fell back to its local limit: " + s.stdout());
        }
        assertTrue(up.peakInFlight() <= LIMIT, "peak in flight at the upstream: " + up.peakInFlight() + " (shared limit " + LIMIT + ")");
        assertEquals(LIMIT, up.peakInFlight(), "both shared slots were used");
    }

    static void closeAll(List<RunningShaper> shapers) {
        shapers.forEach(RunningShaper::close);
    }
}
