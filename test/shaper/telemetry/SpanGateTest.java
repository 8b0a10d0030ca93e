package shaper.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import shaper.testing.HoldingUpstream;

/**
 * Export never holds up an exchange: with the real OTLP exporter stuck on a collector that never
 * answers, ending spans stays immediate, and what the bounded queue cannot take is dropped and counted.
 */
class SpanGateTest {
    @Test
    void aStuckCollectorCostsCountedDropsNotWaits() throws Exception {
        int queue = 8;
        int spans = 200;
        try (HoldingUpstream stuck = HoldingUpstream.start()) {
            SpanGate gate = new SpanGate(queue);
            OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(stuck.url() + "/v1/traces")
                    .setTimeout(Duration.ofSeconds(30)).build();
            BatchSpanProcessor batch = BatchSpanProcessor.builder(gate.out(exporter)).setMaxQueueSize(queue).setMaxExportBatchSize(4)
                    .setScheduleDelay(Duration.ofMillis(1)).build();
            SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(gate.in(batch)).build();
            try {
                Tracer tracer = provider.get("test");
                shaper.testing.RunningShaper.await("the exporter is stuck on its first batch", Duration.ofSeconds(10), () -> {
                    tracer.spanBuilder("warm").startSpan().end();
                    return stuck.heads() >= 1;
                });
                long before = gate.dropped();
                long start = System.nanoTime();
                for (int i = 0; i < spans; i++) {
                    tracer.spanBuilder("s" + i).startSpan().end();
                }
                long tookMs = (System.nanoTime() - start) / 1_000_000;
                assertTrue(tookMs < 2_000, "ending spans never waits on export, took " + tookMs + " ms");
                long dropped = gate.dropped() - before;
                assertTrue(dropped >= spans - queue, "at most the queue's size is taken while the collector hangs: dropped " + dropped);
                assertEquals(0, gate.exported(), "nothing reached a collector that never answers");
            } finally {
                provider.shutdown().join(1, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }
}
