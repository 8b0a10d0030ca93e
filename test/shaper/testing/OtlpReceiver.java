package shaper.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * A local OTLP/HTTP collector: {@code POST /v1/traces} and {@code /v1/metrics} with protobuf bodies,
 * decoded with the OpenTelemetry protocol classes and kept for assertions. Loopback only; bodies are
 * bounded (4 MiB) and anything else is answered 404 or 400, as a real collector would.
 */
public final class OtlpReceiver implements AutoCloseable {
    private static final int MAX_BODY = 4 << 20;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Span> spans = new ArrayList<>();
    private final List<Metric> metrics = new ArrayList<>();
    private final List<String> serviceNames = new ArrayList<>();

    private OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(executor);
        server.createContext("/", this::serve);
        server.start();
    }

    public static OtlpReceiver start() throws IOException {
        return new OtlpReceiver();
    }

    /** The base URL to give {@code -otel-endpoint}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void serve(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body;
            try (InputStream in = "gzip".equalsIgnoreCase(ex.getRequestHeaders().getFirst("Content-Encoding"))
                    ? new GZIPInputStream(ex.getRequestBody()) : ex.getRequestBody()) {
                body = in.readNBytes(MAX_BODY + 1);
            }
            if (!ex.getRequestMethod().equals("POST") || body.length > MAX_BODY) {
                ex.sendResponseHeaders(400, -1);
                return;
            }
            switch (ex.getRequestURI().getPath()) {
                case "/v1/traces" -> {
                    ExportTraceServiceRequest req = ExportTraceServiceRequest.parseFrom(body);
                    synchronized (this) {
                        req.getResourceSpansList().forEach(rs -> {
                            serviceNames.add(attribute(rs.getResource().getAttributesList(), "service.name"));
                            rs.getScopeSpansList().forEach(ss -> spans.addAll(ss.getSpansList()));
                        });
                    }
                }
                case "/v1/metrics" -> {
                    ExportMetricsServiceRequest req = ExportMetricsServiceRequest.parseFrom(body);
                    synchronized (this) {
                        req.getResourceMetricsList().forEach(rm -> rm.getScopeMetricsList().forEach(sm -> metrics.addAll(sm.getMetricsList())));
                    }
                }
                default -> {
                    ex.sendResponseHeaders(404, -1);
                    return;
                }
            }
            ex.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            ex.sendResponseHeaders(200, -1);
        }
    }

    public synchronized List<Span> spans() {
        return List.copyOf(spans);
    }

    public synchronized List<Metric> metrics() {
        return List.copyOf(metrics);
    }

    public synchronized List<String> serviceNames() {
        return List.copyOf(serviceNames);
    }

    /** Waits (bounded) until at least {@code n} spans arrived. */
    public List<Span> awaitSpans(int n, Duration bound) {
        RunningShaper.await(n + " spans exported", bound, () -> spans().size() >= n);
        return spans();
    }

    /** An attribute's value as text (string, int, double, bool or an array's values joined by ","), null when absent. */
    public static String attribute(List<KeyValue> attributes, String key) {
        for (KeyValue kv : attributes) {
            if (kv.getKey().equals(key)) {
                return text(kv.getValue());
            }
        }
        return null;
    }

    private static String text(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case ARRAY_VALUE -> String.join(",", v.getArrayValue().getValuesList().stream().map(OtlpReceiver::text).toList());
            default -> v.toString();
        };
    }

    /** A trace or span id in the lowercase hex of {@code traceparent}. */
    public static String hex(ByteString id) {
        return HexFormat.of().formatHex(id.toByteArray());
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
