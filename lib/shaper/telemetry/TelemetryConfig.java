package shaper.telemetry;

import java.net.URI;
import java.util.Objects;

import shaper.config.ConfigException;

/**
 * The OpenTelemetry switch, server scope.
 *
 * @param enabled  {@code -otel}: export traces and metrics by OTLP; default false (nothing is built, and
 *                 the client's {@code traceparent} passes upstream untouched)
 * @param endpoint {@code -otel-endpoint}: the OTLP/HTTP base URL ({@code /v1/traces} and {@code /v1/metrics}
 *                 are added); empty (the default) leaves it to {@code OTEL_EXPORTER_OTLP_ENDPOINT} or the SDK's
 *                 {@code http://localhost:4318}
 */
public record TelemetryConfig(boolean enabled, String endpoint) {
    public static final TelemetryConfig OFF = new TelemetryConfig(false, "");

    public TelemetryConfig {
        Objects.requireNonNull(endpoint, "endpoint");
        if (!endpoint.isEmpty()) {
            URI u;
            try {
                u = URI.create(endpoint);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("-otel-endpoint: not a URL"); // its text may hold a secret: not repeated
            }
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                throw new ConfigException("-otel-endpoint: " + u.getScheme() + "://…: expected an http:// or https:// URL with a host");
            }
            if (u.getRawUserInfo() != null) {
                throw new ConfigException("-otel-endpoint: credentials in the URL would reach logs; use OTEL_EXPORTER_OTLP_HEADERS");
            }
        }
    }
}
