package shaper.cli;

import picocli.CommandLine.Option;
import shaper.telemetry.TelemetryConfig;

/** The OpenTelemetry switch (server scope); everything else about the export is the standard {@code OTEL_*} environment's. */
final class TelemetryOptions {
    @Option(names = {"-otel", "--otel"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Export OpenTelemetry traces and metrics by OTLP/HTTP (configured by the OTEL_* environment)")
    boolean enabled;

    /** Unset leaves the endpoint to the environment; the URL is checked when the configuration is built. */
    @Option(names = {"-otel-endpoint", "--otel-endpoint"}, paramLabel = "URL",
            description = "OTLP/HTTP endpoint for -otel, above OTEL_EXPORTER_OTLP_ENDPOINT (unset: the environment's, else http://localhost:4318)")
    String endpoint = "";

    TelemetryConfig toConfig() {
        return new TelemetryConfig(enabled, endpoint.trim());
    }
}
