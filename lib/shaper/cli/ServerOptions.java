package shaper.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import shaper.auth.AuthSource;
import shaper.config.BindAddress;
import shaper.config.ConfigException;
import shaper.settings.ServerConfig;

/** Server-scope flags: they configure the listener and belong before the first {@code --provider} marker. */
public final class ServerOptions {
    @Option(names = {"-bind", "--bind"}, paramLabel = "HOST:PORT", defaultValue = ServerConfig.DEFAULT_BIND,
            description = "Listen address; a non-loopback address prints a warning")
    String bind;

    @Option(names = {"-client-key", "--client-key"}, paramLabel = "SOURCE",
            description = "Require clients to present this key (env:VAR or file:PATH, read at startup and at each reload); repeatable")
    List<String> clientKeys = new ArrayList<>();

    @Option(names = {"-metrics-bind", "--metrics-bind"}, paramLabel = "HOST:PORT",
            description = "Serve Prometheus /metrics on this address, on its own listener (unset: off)")
    String metricsBind;

    @Option(names = {"-tui", "--tui"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Run the terminal dashboard (stdout must be a terminal); log lines go to its Logs tab")
    boolean tui;

    @Option(names = {"-shutdown-grace", "--shutdown-grace"}, paramLabel = "D", defaultValue = "30s",
            converter = GoDurationConverter.class,
            description = "On SIGTERM, how long in-flight exchanges may finish before they are cut (a second SIGINT cuts at once)")
    Duration shutdownGrace;

    @Option(names = {"-header-read-timeout", "--header-read-timeout"}, paramLabel = "D", defaultValue = "60s",
            converter = GoDurationConverter.class,
            description = "Close a connection whose request head takes longer than this, or that idles this long between requests")
    Duration headerReadTimeout;

    @Mixin
    ConfigOptions config = new ConfigOptions();

    @Mixin
    RoutingOptions routing = new RoutingOptions();

    @Mixin
    TelemetryOptions telemetry = new TelemetryOptions();

    @Option(names = {"-version", "--version"}, versionHelp = true, description = "Print version and exit")
    boolean version;

    @Option(names = {"-h", "-help", "--help"}, usageHelp = true, description = "Show this flag reference and exit")
    boolean help;

    /** The {@code -config}, {@code -config-watch} and {@code -print-config} flags. */
    public ConfigOptions configOptions() {
        return config;
    }

    ServerConfig toConfig() {
        BindAddress listen = address("-bind", bind);
        // Only the reference's shape is checked here (a literal secret is refused before anything starts);
        // the secret itself is read when the listener starts, and again at each reload.
        clientKeys.forEach(k -> AuthSource.parse("-client-key", k, false));
        // an empty value disables it, as the spec says
        Optional<BindAddress> metrics = metricsBind == null || metricsBind.isBlank() ? Optional.empty()
                : Optional.of(address("-metrics-bind", metricsBind));
        return new ServerConfig(listen, clientKeys, shutdownGrace, headerReadTimeout, metrics, tui, routing.toConfig(),
                telemetry.toConfig());
    }

    /** Text that is no address at all is a usage error (exit 2); a port out of range is a bad value (exit 1). */
    private static BindAddress address(String flag, String text) {
        try {
            return BindAddress.parse(text);
        } catch (BindAddress.Malformed e) {
            throw new UsageException(flag + ": " + e.getMessage(), flag, 0);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(flag + ": " + e.getMessage(), flag, 0);
        }
    }
}
