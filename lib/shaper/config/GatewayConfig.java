package shaper.config;

import java.net.URI;
import java.nio.file.Path;

/**
 * Provider-scope gateway settings: a separate upstream for the Responses routes, the large-request gate and the mirror log.
 *
 * @param responsesUpstream separate upstream for {@code /v1/responses*}, {@code /v1/models*} and {@code /api/pricing}; null = the provider's upstream
 * @param bigCtxTokens      requests of at least this many estimated tokens (body bytes / 4) share the large-request gate; 0 = off
 * @param bigCtxConcurrency permits of that gate (at least 1)
 * @param logFile           file that also receives this provider's log lines; null = none
 * @param responsesWebSocket what a WebSocket upgrade on a Responses route gets ({@code -responses-websocket}, default shape)
 * @param wire              the upstream connections' settings (idle timeout, egress proxy); never null
 */
public record GatewayConfig(URI responsesUpstream, int bigCtxTokens, int bigCtxConcurrency, Path logFile,
                            ResponsesWebSocket responsesWebSocket, WireConfig wire) {
    public GatewayConfig {
        java.util.Objects.requireNonNull(responsesWebSocket, "responsesWebSocket");
        java.util.Objects.requireNonNull(wire, "wire");
    }

    public static GatewayConfig defaults() {
        return new GatewayConfig(null, 0, 1, null, ResponsesWebSocket.SHAPE, WireConfig.DEFAULTS);
    }
}
