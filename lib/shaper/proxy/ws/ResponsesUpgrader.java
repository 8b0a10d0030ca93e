package shaper.proxy.ws;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpPrologue;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.websocket.WsConnection;
import shaper.config.ResponsesWebSocket;
import shaper.observe.EndReason;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangeTracing;
import shaper.observe.Header;
import shaper.observe.Outcome;
import shaper.observe.Provenance;
import shaper.proxy.HeaderPolicy;
import shaper.proxy.ProviderAssembly;
import shaper.proxy.SocketTurn;
import shaper.proxy.TransportErrors;
import shaper.proxy.Upstreams;
import shaper.proxy.upgrade.UpgradeTunnel;

/**
 * The WebSocket upgrader of the listener: a Responses WebSocket ({@code GET /v1/responses} or
 * {@code /responses} after the mount prefix) is decided by the provider's {@code -responses-websocket};
 * every other upgrade goes to the opaque {@link UpgradeTunnel}.
 *
 * <pre>
 * shape, passthrough route ... terminated: upstream socket opened first, then 101, then a session
 * shape, transcoded route .... 426 at once (the Chat upstream has no WebSocket; the client falls back to HTTP)
 * refuse ..................... 426 at once
 * tunnel ..................... the opaque tunnel, as any other upgrade
 * </pre>
 *
 * Terminating: the handshake's end-to-end fields go upstream with the hygiene and the provider's
 * credential rewrite of any request; {@code Sec-WebSocket-Extensions} is not forwarded and not answered,
 * so {@code permessage-deflate} is off on both sides (the JDK client cannot do it, and an event-sized
 * frame gains little); the subprotocol the upstream chose is answered. An upstream that refuses the
 * upgrade has its status answered to the client (a {@code 426} or {@code 404} makes the client fall
 * back to HTTP); one that cannot be reached is a {@code 502}. Every handshake is one record.
 */
public final class ResponsesUpgrader implements Http1Upgrader {
    /** The longest client message, joined from its fragments; Helidon's frame bound is the same. */
    public static final int MAX_MESSAGE = ResponsesSession.MAX_MESSAGE;
    /** A client may wait 15 s for a socket; the upstream's part must end well before that. */
    private static final Duration CONNECT_BOUND = Duration.ofSeconds(10);

    private final UpgradeTunnel tunnel;
    private final UpgradeTunnel.Resolver resolver;
    private final ExchangeLog log;
    private final SessionGauge sessions;
    private final ExchangeTracing tracing;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newVirtualThreadPerTaskExecutor()).build();

    /** @param tracing where each turn's spans come from ({@link ExchangeTracing#OFF} without {@code -otel}) */
    public ResponsesUpgrader(UpgradeTunnel tunnel, UpgradeTunnel.Resolver resolver, ExchangeLog log, SessionGauge sessions,
                             ExchangeTracing tracing) {
        this.tunnel = tunnel;
        this.tracing = tracing;
        this.resolver = resolver;
        this.log = log;
        this.sessions = sessions;
    }

    /** Whether {@code rawPath} (after the mount prefix) is the Responses WebSocket's. */
    static boolean isResponses(String rawPath) {
        return rawPath.equals("/v1/responses") || rawPath.equals("/responses");
    }

    @Override
    public String supportedProtocol() {
        return "websocket";
    }

    @Override
    public ServerConnection upgrade(ConnectionContext ctx, HttpPrologue prologue, WritableHeaders<?> headers) {
        UpgradeTunnel.Target target = resolver.resolve(prologue.uriPath().rawPath(), headers);
        if (target == null || !isResponses(target.rawPath()) || !prologue.method().text().equals("GET")) {
            return tunnel.upgrade(ctx, prologue, headers);
        }
        ProviderAssembly provider = target.assembly();
        ResponsesWebSocket mode = provider.config().gateway().responsesWebSocket();
        if (mode == ResponsesWebSocket.TUNNEL) {
            return tunnel.upgrade(ctx, prologue, headers);
        }
        HandshakeRecord record = HandshakeRecord.begin(provider, prologue, headers, target.rawPath());
        if (mode == ResponsesWebSocket.REFUSE || provider.transcodes("POST", target.rawPath())) {
            return record.answer(ctx, 426, "Upgrade Required",
                    "this route takes the Responses API over HTTP only; send POST " + target.rawPath() + "\n", Outcome.LOCAL);
        }
        String key = headers.first(HeaderNames.create("Sec-WebSocket-Key")).orElse("");
        if (key.isBlank() || !headers.first(HeaderNames.create("Sec-WebSocket-Version")).orElse("").trim().equals("13")) {
            return record.answer(ctx, 400, "Bad Request", "a WebSocket handshake needs Sec-WebSocket-Key and version 13\n", Outcome.FAILED);
        }
        return terminate(ctx, new Handshake(target, prologue, headers, key.trim()), record);
    }

    /** An upgrade to terminate: where it goes and what it asked. */
    private record Handshake(UpgradeTunnel.Target target, HttpPrologue prologue, WritableHeaders<?> headers, String key) {
    }

    private ServerConnection terminate(ConnectionContext ctx, Handshake hs, HandshakeRecord record) {
        ProviderAssembly provider = hs.target().assembly();
        ResponsesSession session = new ResponsesSession(provider,
                new SocketTurn.Asked(hs.headers(), hs.target().rawPath(), hs.target().client(), new byte[0]), sessions.of(provider.name()), tracing);
        UpstreamLink.Opened opened;
        try {
            opened = UpstreamLink.open(http, upstreamUri(provider, hs), forwarded(provider, hs), offered(hs), connectBound(provider), session);
        } catch (ExecutionException e) {
            session.end(1011, "upstream refused");
            if (e.getCause() instanceof WebSocketHandshakeException refused) {
                int status = refused.getResponse().statusCode();
                return record.answer(ctx, status, "Upstream Refused",
                        "upstream refused the WebSocket upgrade with status " + status + "\n", Outcome.CLEAN);
            }
            Throwable why = e.getCause() == null ? e : e.getCause();
            return unreachable(ctx, record, TransportErrors.describe(why), TransportErrors.forClient(why));
        } catch (TimeoutException e) {
            session.end(1011, "upstream timeout");
            return unreachable(ctx, record, "\"upstream WebSocket handshake timed out\"", "the upstream WebSocket handshake timed out");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            session.end(1011, "interrupted");
            return unreachable(ctx, record, "\"interrupted\"", "interrupted");
        }
        session.attach(opened.link());
        StringBuilder head = new StringBuilder("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Accept: ").append(SocketAccept.of(hs.key())).append("\r\n");
        if (!opened.subprotocol().isEmpty()) {
            head.append("Sec-WebSocket-Protocol: ").append(opened.subprotocol()).append("\r\n");
        }
        try {
            ctx.dataWriter().writeNow(BufferData.create(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1)));
        } catch (RuntimeException clientGone) {
            session.end(1001, "client left");
            record.end(101, Outcome.ABORTED, EndReason.CLIENT_LEFT);
            return new SessionConnection(null, session);
        }
        record.end(101, Outcome.CLEAN, EndReason.UPGRADED);
        WsConnection frames = WsConnection.create(ctx, hs.prologue(), hs.headers(), hs.key(), session);
        session.started(frames);
        return new SessionConnection(frames, session);
    }

    /** {@code error} in words for the log line, {@code cause} the client may read. */
    private ServerConnection unreachable(ConnectionContext ctx, HandshakeRecord record, String error, String cause) {
        log.info("upstream error provider=" + record.provider().name() + " method=GET path=" + record.path() + " error=" + error);
        return record.answer(ctx, "502 Bad Gateway", shaper.proxy.LocalFailure.unreachable(cause, shaper.config.UpstreamUrl.display(record.provider().config().upstream())));
    }

    private static Duration connectBound(ProviderAssembly provider) {
        Duration call = provider.config().retry().upstreamTimeout();
        return call.compareTo(CONNECT_BOUND) < 0 ? call : CONNECT_BOUND;
    }

    /** The upstream's socket address: its base (the Responses upstream when one is set) with the routed path. */
    private static URI upstreamUri(ProviderAssembly provider, Handshake hs) {
        URI base = provider.upstreams().forPath(hs.target().rawPath()).base();
        String scheme = base.getScheme().equalsIgnoreCase("https") ? "wss" : "ws";
        return URI.create(scheme + "://" + base.getRawAuthority()
                + Upstreams.pathAndQuery(base, hs.target().rawPath(), hs.prologue().query().rawValue()));
    }

    /** The handshake's fields as any request sends them upstream: end-to-end only, the provider's credentials applied. */
    private static List<Header> forwarded(ProviderAssembly provider, Handshake hs) {
        WritableHeaders<?> out = WritableHeaders.create();
        HeaderPolicy.forEachRequestHeader(hs.headers(), out::add);
        provider.rewrite().apply(out);
        List<Header> fields = new ArrayList<>();
        for (io.helidon.http.Header field : out) {
            for (String v : field.allValues()) {
                fields.add(new Header(field.name(), v));
            }
        }
        return fields;
    }

    private static List<String> offered(Handshake hs) {
        List<String> protocols = new ArrayList<>();
        for (String value : hs.headers().values(HeaderNames.create("Sec-WebSocket-Protocol"))) {
            for (String token : value.split(",")) {
                if (!token.isBlank()) {
                    protocols.add(token.trim());
                }
            }
        }
        return protocols;
    }

    @Override
    public String toString() {
        return "ResponsesUpgrader";
    }

    /** Answers one handshake's record; {@link Provenance} of a local answer is the proxy's own. */
    static Provenance provenance(Outcome outcome, int status) {
        return outcome == Outcome.CLEAN && status >= 400 ? Provenance.UPSTREAM_HTTP
                : outcome == Outcome.CLEAN ? Provenance.NONE : Provenance.LOCAL_ANSWER;
    }
}
