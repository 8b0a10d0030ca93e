package shaper.server;

import java.time.Duration;

import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangeTracing;
import io.helidon.webserver.websocket.WsConfig;
import shaper.proxy.upgrade.UpgradeTunnel;
import shaper.proxy.ws.ResponsesUpgrader;
import shaper.proxy.ws.SessionGauge;
import shaper.proxy.watch.ClientConnection;
import shaper.settings.ServerConfig;

/**
 * The Helidon listener of the proxy: one route (the {@link MountTable}) on virtual threads with
 * TCP_NODELAY, the WebSocket upgrade tunnel, the request-head timeout, request bodies passed on
 * in whatever {@code Content-Encoding} they came ({@link PassthroughEncodings}), and every request
 * it refuses before routing recorded as an exchange ({@link BadInputAnswer}).
 */
final class ShaperListener {
    /** Helidon's own wait for in-flight work on stop; {@link ShaperServer#shutdown} ends it sooner by interrupting. */
    private static final Duration HELIDON_GRACE_MARGIN = Duration.ofSeconds(5);

    private ShaperListener() {
    }

    /**
     * Binds and starts the listener.
     *
     * @throws shaper.config.ConfigException when {@code -bind} cannot be bound (the message names the flag and the cause)
     */
    static WebServer start(ServerConfig config, MountTable table, ExchangeLog log, SessionGauge sessions, ExchangeTracing tracing) {
        ListenCheck.bindable("-bind", config.bind());
        Http1Config http1 = Http1Config.builder()
                .sendKeepAliveHeader(false)
                .maxPrologueLength(32 * 1024)
                .validatePath(false)
                .build();
        UpgradeTunnel opaque = new UpgradeTunnel("websocket", table::upgradeTarget, log);
        ResponsesUpgrader tunnel = new ResponsesUpgrader(opaque, table::upgradeTarget, log, sessions, tracing);
        Duration headTimeout = config.headerReadTimeout();
        HeadReadTimeout heads = new HeadReadTimeout(Http1ConnectionSelector.builder()
                .config(http1)
                .putUpgrader("websocket", tunnel)
                .putUpgrader("WebSocket", tunnel)
                .build());
        WebServer server = WebServer.builder()
                .host(config.bind().host())
                .port(config.bind().port())
                .shutdownHook(false)
                .shutdownGracePeriod(config.shutdownGrace().plus(HELIDON_GRACE_MARGIN))
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .contentEncoding(new PassthroughEncodings())
                .protocolsDiscoverServices(false)
                .addConnectionSelector(heads)
                // the terminated sessions' frame loops read their frame bound here
                .addProtocol(WsConfig.builder().maxFrameLength(ResponsesUpgrader.MAX_MESSAGE).build())
                .idleConnectionTimeout(headTimeout)
                .idleConnectionPeriod(HeadReadTimeout.checkPeriod(headTimeout))
                .directHandlers(BadInputAnswer.forEveryEvent(table))
                .routing(r -> routing(r, table, heads))
                .build()
                .start();
        if (server.port() < 0) {
            // lost a race for the port after the trial bind: Helidon logged it and serves nothing
            server.stop();
            throw ListenCheck.failure("-bind", config.bind(), new java.net.BindException("address already in use"));
        }
        return server;
    }

    /** The single route that production and tests share: every method and path goes to the mount table. */
    static void routing(HttpRouting.Builder routing, MountTable table, HeadReadTimeout heads) {
        routing.any((req, res) -> {
            heads.enter();
            try {
                route(req, res, table);
            } finally {
                heads.leave();
            }
        });
    }

    private static void route(ServerRequest req, ServerResponse res, MountTable table) {
        if (ClientCloseRequest.asked(req.headers())) {
            // RFC 9112 §9.6: after answering a request that says "close", the server closes.
            // Helidon marks the response "Connection: close" but would keep reading; the close
            // must wait until the response is committed, which happens after this handler.
            ClientConnection connection = ClientConnection.of(req, null);
            res.whenSent(connection::closeAfterResponse);
        }
        table.handle(req, res);
    }
}
