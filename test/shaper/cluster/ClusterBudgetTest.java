package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.testing.ScriptedUpstream;

/**
 * Three shaper processes sharing one limit of 2 through Redis, in front of one upstream that
 * records its peak in-flight count: a burst spread over all three never has more than 2 requests
 * at the upstream, uses both slots, and every request completes.
 */
class ClusterBudgetTest {
    private static final int REQUESTS = 60;

    @Test
    @Timeout(value = 6, unit = java.util.concurrent.TimeUnit.MINUTES) // builds and starts shaper processes
    void aBurstOverThreeInstancesNeverExceedsTheSharedLimit() throws Exception {
        try (RedisProcess redis = RedisProcess.startFresh();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 Thread.sleep(25);
                 ex.respond(200, "ok " + req.target(), "Content-Type: text/plain");
             })) {
            String[] flags = {"-upstream", up.url(), "-limit-all", "-concurrency", "2", "-release-cooldown", "0",
                    "-queue-timeout", "90s", "-limiter-backend", redis.url(), "-limiter-redis-timeout", "10s"};
            List<ShaperJvm> shapers = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    shapers.add(ShaperJvm.start(flags));
                }
                shapers.forEach(ShaperJvm::awaitReady);
                List<URI> uris = new ArrayList<>();
                for (int i = 0; i < REQUESTS; i++) {
                    uris.add(Clients.uri(shapers.get(i % 3).port(), "/v1/burst/" + i));
                }
                Collections.shuffle(uris);
                List<Integer> statuses = Clients.burst(uris);
                assertEquals(Collections.nCopies(REQUESTS, 200), statuses, "every request of the burst completes");
                assertEquals(REQUESTS, up.requests().size());
                String logs = shapers.stream().map(ShaperJvm::log).reduce("", String::concat);
                assertTrue(!logs.contains("unreachable"), "no instance fell back to its local limit: " + logs);
                assertTrue(up.peakInFlight() <= 2, "peak in flight at the upstream: " + up.peakInFlight() + " (shared limit 2)");
                assertEquals(2, up.peakInFlight(), "both shared slots were used");
            } finally {
                for (ShaperJvm s : shapers) {
                    s.close();
                }
            }
        }
    }
}
