package shaper.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Server-scope settings: the listener itself, shared by every provider.
 *
 * @param bind       where the proxy listens (default {@code 127.0.0.1:8080})
 * @param clientKeys {@code -client-key} references ({@code env:VAR}, {@code file:PATH}) in order, not yet
 *                   resolved; empty (the default) admits every client
 * @param metricsBind {@code -metrics-bind}: where {@code /metrics} listens, on its own listener; empty (the default) disables it
 * @param tui        {@code -tui}: draw the terminal dashboard on stdout (which must be a terminal) and send
 *                   log lines to its Logs tab instead of stdout; default false
 */
public record ServerConfig(BindAddress bind, List<String> clientKeys, Optional<BindAddress> metricsBind, boolean tui) {
    public static final String DEFAULT_BIND = "127.0.0.1:8080";

    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        clientKeys = List.copyOf(clientKeys);
        Objects.requireNonNull(metricsBind, "metricsBind");
    }

    /** Without the dashboard. */
    public ServerConfig(BindAddress bind, List<String> clientKeys, Optional<BindAddress> metricsBind) {
        this(bind, clientKeys, metricsBind, false);
    }

    /** Without a metrics listener. */
    public ServerConfig(BindAddress bind, List<String> clientKeys) {
        this(bind, clientKeys, Optional.empty());
    }

    /** A listener that admits every client. */
    public ServerConfig(BindAddress bind) {
        this(bind, List.of());
    }
}
