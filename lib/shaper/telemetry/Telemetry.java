package shaper.telemetry;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import shaper.config.ConfigException;
import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeSpans;
import shaper.observe.ExchangeTracing;

/**
 * The server's OpenTelemetry SDK: traces and metrics exported by OTLP over HTTP/protobuf, configured
 * by the standard {@code OTEL_*} environment (endpoint, headers, service name, sampler, batch sizes,
 * export interval) with {@code -otel-endpoint} above it. Built only with {@code -otel}; {@link #OFF}
 * otherwise, which builds nothing and changes no header.
 *
 * <p>Export runs on the SDK's own threads: an exchange only ends spans into a bounded queue
 * ({@link SpanGate}), and what does not fit is dropped and counted, never waited for. Thread-safe.
 */
public final class Telemetry implements ExchangeTracing, AutoCloseable {
    /** Tracing and OTLP metrics off. */
    public static final Telemetry OFF = new Telemetry(null, null, null, null);

    /** The instrumentation scope's name on every span and metric. */
    static final String SCOPE = "ai-concurrency-shaper";
    private static final TextMapGetter<Function<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public String get(Function<String, String> carrier, String key) {
            return carrier == null ? null : carrier.apply(key);
        }
    };

    /** What each exchange's span tree is made with. */
    record Spans(Tracer tracer, TextMapPropagator propagator, GenAiMetrics metrics) {
    }

    private final OpenTelemetrySdk sdk;
    private final Spans spans;
    private final SpanGate gate;
    private final AtomicReference<Supplier<Map<String, List<LimiterSnapshot>>>> slots;

    private Telemetry(OpenTelemetrySdk sdk, Spans spans, SpanGate gate, AtomicReference<Supplier<Map<String, List<LimiterSnapshot>>>> slots) {
        this.sdk = sdk;
        this.spans = spans;
        this.gate = gate;
        this.slots = slots;
    }

    /**
     * Builds the SDK when {@code config} switches it on.
     *
     * @throws ConfigException when the environment asks for what this build cannot export (gRPC) or is malformed
     */
    public static Telemetry open(TelemetryConfig config) {
        if (!config.enabled()) {
            return OFF;
        }
        AtomicReference<SpanGate> gate = new AtomicReference<>();
        OpenTelemetrySdk sdk;
        try {
            sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(Telemetry::defaults)
                    .addPropertiesCustomizer(props -> overrides(config, props))
                    // the exporter is built (and customized) before the batch processor that wraps it
                    .addSpanExporterCustomizer((exporter, props) -> {
                        gate.set(new SpanGate(props.getInt("otel.bsp.max.queue.size", 2048)));
                        return gate.get().out(exporter);
                    })
                    .addSpanProcessorCustomizer((batch, props) -> gate.get() == null ? batch : gate.get().in(batch))
                    .disableShutdownHook()
                    .build().getOpenTelemetrySdk();
        } catch (RuntimeException e) {
            if (e instanceof ConfigException c) {
                throw c;
            }
            throw new ConfigException("-otel: " + e.getMessage());
        }
        AtomicReference<Supplier<Map<String, List<LimiterSnapshot>>>> slots = new AtomicReference<>(Map::of);
        GenAiMetrics metrics = new GenAiMetrics(sdk.getMeter(SCOPE), () -> slots.get().get(), gate.get());
        Spans spans = new Spans(sdk.getTracer(SCOPE, shaper.Version.VERSION), W3CTraceContextPropagator.getInstance(), metrics);
        return new Telemetry(sdk, spans, gate.get(), slots);
    }

    /** Below the environment: what this proxy exports unless told otherwise. */
    private static Map<String, String> defaults() {
        return Map.of("otel.service.name", SCOPE,
                "otel.exporter.otlp.protocol", "http/protobuf",
                "otel.logs.exporter", "none");
    }

    /** Above the environment: the flags, and a refusal of what this build does not carry. */
    private static Map<String, String> overrides(TelemetryConfig config, ConfigProperties props) {
        for (String signal : new String[] {"", "traces.", "metrics."}) {
            String protocol = props.getString("otel.exporter.otlp." + signal + "protocol", "http/protobuf");
            if (!protocol.toLowerCase(Locale.ROOT).equals("http/protobuf")) {
                throw new ConfigException("-otel: OTEL_EXPORTER_OTLP_" + signal.toUpperCase(Locale.ROOT).replace('.', '_') + "PROTOCOL="
                        + protocol + ": this build exports OTLP over http/protobuf only");
            }
        }
        Map<String, String> out = new HashMap<>();
        if (!config.endpoint().isEmpty()) {
            out.put("otel.exporter.otlp.endpoint", config.endpoint());
        }
        return out;
    }

    /** Whether tracing is on. */
    public boolean enabled() {
        return sdk != null;
    }

    /** The limiters' counts the slot gauges observe, per provider; read at each metrics export. */
    public void slots(Supplier<Map<String, List<LimiterSnapshot>>> counts) {
        if (slots != null) {
            slots.set(counts);
        }
    }

    /** Spans dropped because the export queue was full; 0 while off. */
    public long spansDropped() {
        return gate == null ? 0 : gate.dropped();
    }

    /** Spans the exporter failed to deliver; 0 while off. */
    public long spansFailed() {
        return gate == null ? 0 : gate.failed();
    }

    @Override
    public ExchangeSpans begin(String provider, String method, String path, Function<String, String> header) {
        if (sdk == null) {
            return ExchangeSpans.NONE;
        }
        Context parent = spans.propagator().extract(Context.root(), header, HEADERS);
        // the method alone until the exchange turns out a model call: a raw path would make span names unbounded
        Span server = spans.tracer().spanBuilder(method).setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute(GenAi.HTTP_METHOD, method).setAttribute(GenAi.URL_PATH, path)
                .setAttribute(GenAi.SHAPER_PROVIDER, provider).startSpan();
        return new ExchangeSpanTree(spans, server, parent.with(server));
    }

    /** Flushes what is queued (bounded) and stops the SDK's threads. */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(5, TimeUnit.SECONDS);
        }
    }
}
