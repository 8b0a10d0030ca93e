package shaper.config;

import java.util.Locale;

/**
 * What the proxy does with a WebSocket upgrade on a provider's Responses route ({@code -responses-websocket}).
 * Other WebSocket upgrades are always tunnelled.
 */
public enum ResponsesWebSocket {
    /** Terminate the socket and admit each generating {@code response.create} as one exchange (the default). */
    SHAPE,
    /** Splice the bytes to the upstream unread, as for any other upgrade: no turn is limited or counted. */
    TUNNEL,
    /** Answer the upgrade {@code 426} at once, so the client falls back to HTTP without retrying. */
    REFUSE;

    /** Parses a flag value ({@code shape}, {@code tunnel}, {@code refuse}, any case). */
    public static ResponsesWebSocket parse(String value) {
        for (ResponsesWebSocket mode : values()) {
            if (mode.name().equalsIgnoreCase(value.trim())) {
                return mode;
            }
        }
        throw new ConfigException("-responses-websocket must be shape, tunnel or refuse, got " + value);
    }

    /** The flag's spelling. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
