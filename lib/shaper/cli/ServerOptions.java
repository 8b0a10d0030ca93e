package shaper.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine.Option;
import shaper.config.BindAddress;
import shaper.config.ConfigException;
import shaper.config.ServerConfig;

/** Server-scope flags: they configure the listener and belong before the first {@code --provider} marker. */
public final class ServerOptions {
    @Option(names = {"-bind", "--bind"}, paramLabel = "HOST:PORT", defaultValue = ServerConfig.DEFAULT_BIND,
            description = "Listen address (default ${DEFAULT-VALUE}; a non-loopback address prints a warning)")
    String bind;

    @Option(names = {"-client-key", "--client-key"}, paramLabel = "SOURCE",
            description = "Require clients to present this key (env:VAR or file:PATH, read once at startup); repeatable")
    List<String> clientKeys = new ArrayList<>();

    @Option(names = {"-metrics-bind", "--metrics-bind"}, paramLabel = "HOST:PORT",
            description = "Serve Prometheus /metrics on this address, on its own listener (default: off)")
    String metricsBind;

    @Option(names = {"-shutdown-grace", "--shutdown-grace"}, paramLabel = "D", defaultValue = "30s",
            converter = GoDurationConverter.class,
            description = "On SIGTERM, how long in-flight exchanges may finish before they are cut (default ${DEFAULT-VALUE}; "
                    + "a second SIGINT cuts at once)")
    Duration shutdownGrace;

    @Option(names = {"-header-read-timeout", "--header-read-timeout"}, paramLabel = "D", defaultValue = "60s",
            converter = GoDurationConverter.class,
            description = "Close a connection whose request head takes longer than this, or that idles this long "
                    + "between requests (default ${DEFAULT-VALUE})")
    Duration headerReadTimeout;

    @Option(names = {"-version", "--version"}, description = "Print version and exit")
    boolean version;

    @Option(names = {"-h", "-help", "--help"}, usageHelp = true, description = "Show this flag reference and exit")
    boolean help;

    ServerConfig toConfig() {
        BindAddress listen;
        try {
            listen = BindAddress.parse(bind);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("-bind: " + e.getMessage());
        }
        try {
            // an empty value disables it, as the spec says
            Optional<BindAddress> metrics = metricsBind == null || metricsBind.isBlank() ? Optional.empty()
                    : Optional.of(BindAddress.parse(metricsBind));
            return new ServerConfig(listen, clientKeys, shutdownGrace, headerReadTimeout, metrics);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("-metrics-bind: " + e.getMessage());
        }
    }
}
