package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.limit.SystemTimeSource;

/** The upstream idle pool is sized from the configured caps, as README.md states. */
class UpstreamPoolSizeTest {
    private static int pool(List<String> limits, boolean limitAll, int concurrency, int global) {
        AdmissionConfig d = AdmissionConfig.defaults();
        AdmissionConfig c = new AdmissionConfig(limits, limitAll, concurrency, global, d.queueTimeout(), 0, Duration.ZERO,
                d.releaseCooldown(), d.cancelCooldown(), d.failureHold(), false, d.adaptiveHeadroomWindow(), false);
        try (SystemTimeSource time = new SystemTimeSource("pool-test")) {
            return new ProviderLimiters("p", c, 0, 1, time).upstreamPoolSize();
        }
    }

    @Test
    void sumOfRouteCapsPlusTheDefaultPoolWithAFloorOfTwenty() {
        assertEquals(20, pool(List.of("POST /a:3"), true, 4, 0), "3 + 4 is under the floor");
        assertEquals(70, pool(List.of("POST /a:30@g", "POST /b@g", "POST /c:36"), true, 4, 0), "30 + 36 + the default pool 4");
    }

    @Test
    void theGlobalLimitCapsTheSum() {
        assertEquals(25, pool(List.of("POST /a:30", "POST /c:36"), true, 4, 25));
        assertEquals(20, pool(List.of("POST /a:30"), true, 4, 5), "the floor still applies after the cap");
    }

    @Test
    void unboundedPassthroughKeepsAtLeast128() {
        assertEquals(128, pool(List.of(), false, 4, 0), "no -limit-all and no global limiter");
        assertEquals(200, pool(List.of("POST /a:200"), false, 4, 0));
    }
}
