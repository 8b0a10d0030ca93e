package shaper.config;

/**
 * Server-scope settings: the listener itself, shared by every provider.
 *
 * @param bind where the proxy listens (default {@code 127.0.0.1:8080})
 */
public record ServerConfig(BindAddress bind) {
    public static final String DEFAULT_BIND = "127.0.0.1:8080";
}
