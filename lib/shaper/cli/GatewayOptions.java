package shaper.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;
import shaper.config.ConfigException;
import shaper.config.GatewayConfig;
import shaper.config.ResponsesWebSocket;
import shaper.config.UpstreamUrl;
import shaper.config.WireConfig;

/** Provider-scope gateway flags: a separate upstream for the Responses API, the large-request gate, a per-provider mirror log. */
public final class GatewayOptions {
    @Option(names = {"-responses-upstream", "--responses-upstream"}, paramLabel = "URL",
            description = "Separate upstream for /v1/responses*, /v1/models* and /api/pricing (default: -upstream)")
    String responsesUpstream;

    @Option(names = {"-big-ctx-tokens", "--big-ctx-tokens"}, paramLabel = "N", defaultValue = "0",
            description = "Requests of at least N estimated tokens (body bytes / 4) share the large-request gate (0 = off)")
    int bigCtxTokens;

    @Option(names = {"-big-ctx-concurrency", "--big-ctx-concurrency"}, paramLabel = "N", defaultValue = "1",
            description = "Permits of the large-request gate (default ${DEFAULT-VALUE})")
    int bigCtxConcurrency;

    @Option(names = {"-log-file", "--log-file"}, paramLabel = "PATH",
            description = "Also append this provider's log lines to PATH (its directory must exist)")
    Path logFile;

    GatewayConfig toConfig(WireConfig wire) {
        if (bigCtxTokens < 0) {
            throw new ConfigException("-big-ctx-tokens must be >= 0, got " + bigCtxTokens);
        }
        if (bigCtxConcurrency < 1) {
            throw new ConfigException("-big-ctx-concurrency must be >= 1, got " + bigCtxConcurrency);
        }
        if (logFile != null && (logFile.toAbsolutePath().getParent() == null
                || !java.nio.file.Files.isDirectory(logFile.toAbsolutePath().getParent()))) {
            throw new ConfigException("-log-file: directory of " + logFile + " does not exist");
        }
        return new GatewayConfig(responsesUpstream == null ? null : UpstreamUrl.parse(responsesUpstream, "-responses-upstream"),
                bigCtxTokens, bigCtxConcurrency, logFile, ResponsesWebSocket.parse(responsesWebSocket), wire);
    }

    /** Read by {@link #toConfig}: one of the {@link ResponsesWebSocket} modes. */
    @Option(names = {"-responses-websocket", "--responses-websocket"}, paramLabel = "MODE", defaultValue = "shape", description =
            "WebSocket upgrades on the Responses route: shape (admit each turn), tunnel (opaque) or refuse (426)") String responsesWebSocket;
}
