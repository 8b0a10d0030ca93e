package shaper.telemetry;

import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.function.Supplier;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeRecord;
import shaper.observe.Outcome;
import shaper.usage.TokenUsage;

/**
 * The OTLP metrics, beside the Prometheus ones and read from the same record: the GenAI client
 * metrics ({@code gen_ai.client.token.usage}, {@code gen_ai.client.operation.duration},
 * {@code gen_ai.client.operation.time_to_first_chunk}), the shaper's queue wait, and its slot and
 * queue gauges, observed from the limiters' snapshots at each export. Thread-safe.
 */
final class GenAiMetrics {
    /** The convention's advice for durations, in seconds. */
    private static final List<Double> SECONDS = List.of(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24,
            20.48, 40.96, 81.92);
    private static final List<Long> TOKENS = List.of(1L, 4L, 16L, 64L, 256L, 1024L, 4096L, 16384L, 65536L, 262144L, 1048576L,
            4194304L, 16777216L, 67108864L);

    private final LongHistogram tokens;
    private final DoubleHistogram duration;
    private final DoubleHistogram firstChunk;
    private final DoubleHistogram queueWait;

    /** @param gate the export queue's gate, whose drops and failures are counted; null when no span exporter is configured */
    GenAiMetrics(Meter meter, Supplier<Map<String, List<LimiterSnapshot>>> slots, SpanGate gate) {
        tokens = meter.histogramBuilder("gen_ai.client.token.usage").ofLongs().setUnit("{token}")
                .setDescription("Tokens used per exchange, by gen_ai.token.type").setExplicitBucketBoundariesAdvice(TOKENS).build();
        duration = meter.histogramBuilder("gen_ai.client.operation.duration").setUnit("s")
                .setDescription("Arrival to the end of the exchange, queue wait and retries included")
                .setExplicitBucketBoundariesAdvice(SECONDS).build();
        firstChunk = meter.histogramBuilder("gen_ai.client.operation.time_to_first_chunk").setUnit("s")
                .setDescription("Arrival to the first byte sent to the client, for event streams")
                .setExplicitBucketBoundariesAdvice(SECONDS).build();
        queueWait = meter.histogramBuilder("shaper.queue.wait").setUnit("s")
                .setDescription("Time an exchange waited for slots or tokens").setExplicitBucketBoundariesAdvice(SECONDS).build();
        meter.gaugeBuilder("shaper.slots").ofLongs().setUnit("{slot}").setDescription("Limiter slots by state (in_use, cooling, idle)")
                .buildWithCallback(m -> slots.get().forEach((provider, limiters) -> limiters.forEach(l -> {
                    m.record(l.inUse(), slot(provider, l, "in_use"));
                    m.record(l.cooling(), slot(provider, l, "cooling"));
                    m.record(l.idle(), slot(provider, l, "idle"));
                })));
        meter.gaugeBuilder("shaper.queued").ofLongs().setUnit("{request}").setDescription("Requests waiting for a limiter's slot")
                .buildWithCallback(m -> slots.get().forEach((provider, limiters) -> limiters.forEach(l ->
                        m.record(l.waiters(), Attributes.of(GenAi.SHAPER_PROVIDER, provider, GenAi.SLOT_LIMITER, l.name())))));
        if (gate != null) {
            spanCounts(meter, gate);
        }
    }

    private static void spanCounts(Meter meter, SpanGate gate) {
        meter.counterBuilder("shaper.telemetry.spans.dropped").setUnit("{span}")
                .setDescription("Spans dropped because the export queue was full").buildWithCallback(m -> m.record(gate.dropped()));
        meter.counterBuilder("shaper.telemetry.spans.failed").setUnit("{span}")
                .setDescription("Spans the exporter could not deliver").buildWithCallback(m -> m.record(gate.failed()));
    }

    private static Attributes slot(String provider, LimiterSnapshot l, String state) {
        return Attributes.of(GenAi.SHAPER_PROVIDER, provider, GenAi.SLOT_LIMITER, l.name(), GenAi.SLOT_STATE, state);
    }

    /** Records one finished exchange; {@code operation} is its GenAI operation, empty for a call that is none. */
    void record(ExchangeRecord r, String operation) {
        AttributesBuilder b = Attributes.builder().put(GenAi.SHAPER_PROVIDER, r.provider());
        if (!operation.isEmpty()) {
            b.put(GenAi.OPERATION, operation).put(GenAi.PROVIDER, GenAi.provider(r.path()));
            if (!r.usage().model().isEmpty()) {
                b.put(GenAi.REQUEST_MODEL, r.usage().model());
            }
        }
        Attributes common = b.build();
        if (r.timings().queueEnd() > 0) {
            queueWait.record(r.timings().queueWait().toNanos() / 1e9, r.priorityClass().isEmpty() ? common
                    : common.toBuilder().put(GenAi.PRIORITY_CLASS, r.priorityClass()).build());
        }
        if (operation.isEmpty()) {
            return;
        }
        Attributes ended = r.outcome() == Outcome.CLEAN && r.status() < 400 ? common
                : common.toBuilder().put(GenAi.ERROR_TYPE, r.status() >= 400 ? Integer.toString(r.status())
                        : r.reason().name().toLowerCase(Locale.ROOT)).build();
        duration.record(r.timings().duration().toNanos() / 1e9, ended);
        if (r.type().equals("events") && r.timings().firstByte() >= 0) {
            firstChunk.record(r.timings().firstByte() / 1e9, common);
        }
        TokenUsage u = r.usage();
        if (u.source() != TokenUsage.Source.NONE) {
            tokens.record(u.allInput(), common.toBuilder().put(GenAi.TOKEN_TYPE, "input").build());
            tokens.record(u.output(), common.toBuilder().put(GenAi.TOKEN_TYPE, "output").build());
        }
    }
}
