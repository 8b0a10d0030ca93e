package shaper.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import shaper.testing.OtlpReceiver;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The OTLP metrics beside Prometheus: the GenAI client metrics and the shaper's own, as a collector receives them. */
class OtlpMetricsTest {
    private static final String ANSWER = "{\"type\":\"message\",\"model\":\"claude-x\",\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":7,\"output_tokens\":3,\"cache_read_input_tokens\":4}}";

    private static Metric named(List<Metric> all, String name) {
        return all.stream().filter(m -> m.getName().equals(name)).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError(name + " not exported: " + all.stream().map(Metric::getName).distinct().toList()));
    }

    @Test
    void tokensDurationAndSlotsAreExportedByOtlp() throws Exception {
        try (OtlpReceiver collector = OtlpReceiver.start(); ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, ANSWER, "Content-Type: application/json"))) {
            try (RunningShaper shaper = RunningShaper.start("-otel", "-otel-endpoint", collector.url(), "-upstream", up.url(), "-limit-all");
                 RawHttp client = new RawHttp(shaper.port())) {
                String body = "{\"model\":\"claude-x\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
                client.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\n\r\n" + body);
                assertEquals(200, client.readHead().status());
                client.readBytes(ANSWER.length());
                RunningShaper.await("exchange recorded", Duration.ofSeconds(10), () -> !shaper.server().journal("default").recent().isEmpty());
            } // shutting down exports the metrics once more
            RunningShaper.await("metrics exported", Duration.ofSeconds(20), () -> collector.metrics().stream()
                    .anyMatch(m -> m.getName().equals("gen_ai.client.token.usage")));
            List<Metric> all = collector.metrics();
            List<HistogramDataPoint> tokens = named(all, "gen_ai.client.token.usage").getHistogram().getDataPointsList();
            Set<String> types = tokens.stream().map(p -> OtlpReceiver.attribute(p.getAttributesList(), "gen_ai.token.type"))
                    .collect(Collectors.toSet());
            assertEquals(Set.of("input", "output"), types);
            HistogramDataPoint input = tokens.stream().filter(p -> "input".equals(OtlpReceiver.attribute(p.getAttributesList(), "gen_ai.token.type")))
                    .findFirst().orElseThrow();
            assertEquals(11.0, input.getSum(), "input counts cache reads too, as the convention does");
            assertEquals("claude-x", OtlpReceiver.attribute(input.getAttributesList(), "gen_ai.request.model"));
            assertEquals("anthropic", OtlpReceiver.attribute(input.getAttributesList(), "gen_ai.provider.name"));
            HistogramDataPoint duration = named(all, "gen_ai.client.operation.duration").getHistogram().getDataPoints(0);
            assertEquals(1, duration.getCount());
            assertEquals("s", named(all, "gen_ai.client.operation.duration").getUnit());
            assertTrue(named(all, "shaper.slots").getGauge().getDataPointsCount() >= 3, "in_use, cooling and idle of each limiter");
            assertTrue(all.stream().anyMatch(m -> m.getName().equals("shaper.queued")));
        }
    }
}
