package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import shaper.admission.AdmissionConfig;
import shaper.admission.ProviderLimiters;
import shaper.breaker.BreakerConfig;
import shaper.breaker.CircuitBreaker;
import shaper.limit.SystemTimeSource;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeTrace;
import shaper.observe.Journal;
import shaper.observe.RouteKind;
import shaper.priority.PriorityClassifier;

/** Per-route queue labels: pattern method and path, groups as @name, invalid UTF-8 skipped (fail-closed). */
class RouteLabelTest {
    private static final String BAD = "POST /v1/bad\uD800:1";

    @Test
    void aRouteWhoseLabelIsNotValidUtf8ExportsNoSeriesWhileOthersDo() throws Exception {
        List<String> limits = List.of(BAD, "POST /v1/ok:1", "POST /v1/chat:2@chat", "GET /v1/chat/list@chat");
        AdmissionConfig d = AdmissionConfig.defaults();
        AdmissionConfig c = new AdmissionConfig(limits, false, 4, 0, d.queueTimeout(), 0, Duration.ZERO,
                d.releaseCooldown(), d.cancelCooldown(), d.failureHold(), false, d.adaptiveHeadroomWindow(), false);
        try (SystemTimeSource time = new SystemTimeSource("route-label-test")) {
            Journal journal = new Journal("p", 8);
            for (String key : List.of("POST /v1/bad\uD800", "POST /v1/ok", "chat")) { // the limiter keys: pattern without its limit, or group
                ExchangeTrace t = journal.begin("POST", "/x", "");
                t.classified(RouteKind.LIMITED, key);
            }
            ShaperMetrics metrics = new ShaperMetrics(List.of(new ProviderView("p", limits, new ProviderLimiters("p", c, 0, 1, time),
                    CircuitBreaker.of(BreakerConfig.defaults()), journal, new ExchangeCounters(), Optional.empty(), PriorityClassifier.NONE,
                    Map::of)));
            String text = metrics.scrape();
            assertTrue(text.contains("shaper_route_queued{method=\"POST\",path=\"/v1/ok\",provider=\"p\"} 1"), text);
            assertTrue(text.contains("shaper_route_queued{method=\"*\",path=\"@chat\",provider=\"p\"} 1"), text);
            assertFalse(text.contains("bad"), "the invalid label's series is skipped, never sanitized:\n" + text);
            assertFalse(LabelValues.validUtf8("a\uD800"));
            assertFalse(LabelValues.validUtf8("\uDC00a"));
            assertTrue(LabelValues.validUtf8("caf\u00e9 \uD83D\uDE00"));
        }
    }
}
