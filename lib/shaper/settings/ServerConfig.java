package shaper.settings;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import shaper.config.BindAddress;
import shaper.config.ConfigException;
import shaper.config.GoDuration;
import shaper.routing.RoutingConfig;
import shaper.telemetry.TelemetryConfig;

/**
 * Server-scope settings: the listener itself, shared by every provider.
 *
 * @param bind       where the proxy listens (default {@code 127.0.0.1:8080})
 * @param shutdownGrace {@code -shutdown-grace}: how long in-flight exchanges may finish after a stop is asked (default 30s)
 * @param headerReadTimeout {@code -header-read-timeout}: bound on receiving a request head, and on an idle
 *                   keep-alive connection (default 60s)
 * @param clientKeys {@code -client-key} references ({@code env:VAR}, {@code file:PATH}) in order, not yet
 *                   resolved; empty (the default) admits every client
 * @param metricsBind {@code -metrics-bind}: where {@code /metrics} listens, on its own listener; empty (the default) disables it
 * @param tui        {@code -tui}: draw the terminal dashboard on stdout (which must be a terminal) and send
 *                   log lines to its Logs tab instead of stdout; default false
 * @param routing    the routed mount ({@code -route-prefix}, {@code -model-route} and their fallback and affinity
 *                   settings); {@link RoutingConfig#NONE} when there is none. Reloaded live.
 * @param telemetry  {@code -otel}, {@code -otel-endpoint}: OpenTelemetry export; off by default
 */
public record ServerConfig(BindAddress bind, List<String> clientKeys, Duration shutdownGrace, Duration headerReadTimeout,
                           Optional<BindAddress> metricsBind, boolean tui, RoutingConfig routing, TelemetryConfig telemetry) {
    public static final String DEFAULT_BIND = "127.0.0.1:8080";
    /** {@code -shutdown-grace}: how long in-flight exchanges may run on after SIGTERM. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);
    /** {@code -header-read-timeout}: a request head (or an idle keep-alive connection) slower than this is closed; nginx's 60s. */
    public static final Duration DEFAULT_HEADER_READ_TIMEOUT = Duration.ofSeconds(60);

    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        clientKeys = List.copyOf(clientKeys);
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (shutdownGrace.isNegative()) {
            throw new ConfigException("-shutdown-grace: " + GoDuration.format(shutdownGrace) + " (expected: >= 0)");
        }
        Objects.requireNonNull(headerReadTimeout, "headerReadTimeout");
        if (!headerReadTimeout.isPositive()) {
            throw new ConfigException("-header-read-timeout: " + GoDuration.format(headerReadTimeout) + " (expected: > 0)");
        }
        Objects.requireNonNull(metricsBind, "metricsBind");
        Objects.requireNonNull(routing, "routing");
        Objects.requireNonNull(telemetry, "telemetry");
    }

    /** This listener with other client keys and every other component as it is (client keys and routes are the live server settings). */
    public ServerConfig withClientKeys(List<String> keys) {
        return new ServerConfig(bind, keys, shutdownGrace, headerReadTimeout, metricsBind, tui, routing, telemetry);
    }

    /** This listener with other routes and every other component as it is. */
    public ServerConfig withRouting(RoutingConfig routes) {
        return new ServerConfig(bind, clientKeys, shutdownGrace, headerReadTimeout, metricsBind, tui, routes, telemetry);
    }
}
