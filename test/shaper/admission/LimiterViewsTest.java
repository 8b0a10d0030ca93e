package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.limit.LimiterView;
import shaper.limit.SystemTimeSource;

/**
 * A provider's limiter views name each limiter by its role (routes, default pool, global, large-request
 * gate), whichever of the optional ones are configured, so no reader works it out from positions.
 */
class LimiterViewsTest {
    private static LimiterViews views(List<String> limits, int global, int bigCtxTokens) {
        AdmissionConfig d = AdmissionConfig.defaults();
        AdmissionConfig c = new AdmissionConfig(limits, true, 4, global, d.queueTimeout(), 0, Duration.ZERO,
                d.releaseCooldown(), d.cancelCooldown(), d.failureHold(), false, d.adaptiveHeadroomWindow(), false);
        try (SystemTimeSource time = new SystemTimeSource("views-test")) {
            return new ProviderLimiters("p", c, bigCtxTokens, 2, time).views();
        }
    }

    @Test
    void eachLimiterIsInItsRole() {
        LimiterViews all = views(List.of("POST /a:3", "POST /b:5"), 6, 1000);
        assertEquals(List.of("POST /a", "POST /b"), List.copyOf(all.routes().keySet()));
        assertEquals(List.of(3, 5), all.routes().values().stream().map(v -> v.counts().limit()).toList());
        assertEquals("p default", all.pool().counts().name());
        assertEquals(4, all.pool().counts().limit());
        assertEquals(Optional.of(6), all.global().map(v -> v.counts().limit()));
        assertEquals(Optional.of(2), all.gate().map(v -> v.counts().limit()));
        assertEquals(List.of("POST /a", "POST /b", LimiterViews.POOL, LimiterViews.GLOBAL, LimiterViews.GATE),
                List.copyOf(all.byKey().keySet()), "the keys that name a limiter to a reload and label it in metrics");
        assertEquals(all.byKey().values().stream().map(LimiterView::counts).toList(), all.counts());
    }

    @Test
    void theGateWithoutAGlobalLimiterIsStillTheGate() {
        LimiterViews gateOnly = views(List.of(), 0, 1000);
        assertTrue(gateOnly.routes().isEmpty());
        assertEquals(Optional.empty(), gateOnly.global());
        assertEquals(Optional.of("p large-request gate"), gateOnly.gate().map(v -> v.counts().name()));
        assertEquals(List.of("p default", "p large-request gate"), gateOnly.counts().stream().map(LimiterSnapshot::name).toList());

        LimiterViews poolOnly = views(List.of(), 0, 0);
        assertEquals(Optional.empty(), poolOnly.gate());
        assertEquals(List.of(LimiterViews.POOL), List.copyOf(poolOnly.byKey().keySet()));
    }
}
