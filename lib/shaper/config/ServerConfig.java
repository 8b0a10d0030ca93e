package shaper.config;

import java.util.List;
import java.util.Objects;

/**
 * Server-scope settings: the listener itself, shared by every provider.
 *
 * @param bind       where the proxy listens (default {@code 127.0.0.1:8080})
 * @param clientKeys {@code -client-key} references ({@code env:VAR}, {@code file:PATH}) in order, not yet
 *                   resolved; empty (the default) admits every client
 * @param tui        {@code -tui}: draw the terminal dashboard on stdout (which must be a terminal) and send
 *                   log lines to its Logs tab instead of stdout; default false
 */
public record ServerConfig(BindAddress bind, List<String> clientKeys, boolean tui) {
    public static final String DEFAULT_BIND = "127.0.0.1:8080";

    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        clientKeys = List.copyOf(clientKeys);
    }

    /** A listener that admits every client. */
    public ServerConfig(BindAddress bind) {
        this(bind, List.of());
    }

    /** A listener without the dashboard. */
    public ServerConfig(BindAddress bind, List<String> clientKeys) {
        this(bind, clientKeys, false);
    }
}
