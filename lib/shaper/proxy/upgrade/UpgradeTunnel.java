package shaper.proxy.upgrade;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.observe.EndReason;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangePublisher;
import shaper.observe.Outcome;
import shaper.proxy.AnswerJudge.BreakerVerdict;
import shaper.proxy.HeaderPolicy;
import shaper.proxy.HeaderRewrite;
import shaper.proxy.LocalFailure;
import shaper.proxy.ProviderAssembly;
import shaper.proxy.TransportErrors;
import shaper.proxy.Upstreams;
import shaper.retry.FailureClass;
import shaper.retry.UpstreamFailures;

/**
 * The policy of an upgrade: what is forwarded, what the client gets, what the breaker hears.
 *
 * <pre>
 * breaker open ............................ 503 "circuit open"         failed
 * connect / send / head fails or times out  502                        failed, breaker failure
 * answer not HTTP ......................... 502                        failed, breaker failure
 * 101 naming a protocol not offered ....... 502                        failed, breaker failure
 * 101 ..................................... head relayed, splice       upgraded, breaker success
 * other status ............................ head and body relayed      completed or aborted
 * </pre>
 *
 * The handshake goes out with the header hygiene of any request and the provider's rewrite. The
 * handshake and a refused upgrade's body are bounded by {@code -upstream-timeout}; a refused body cut
 * short is {@code aborted} and a breaker failure, as on plain requests. An established tunnel is
 * not bounded. Every path ends in one record; after a local answer the client connection closes.
 */
public final class UpgradeTunnel implements Http1Upgrader {
    private static final String PROTOCOL_REFUSED = "upstream switched to a protocol the client did not request";

    /**
     * Where an upgrade request goes: the provider's assembly (its upstream, header rewrite applied to
     * the handshake as to any request, {@code -upstream-timeout}, breaker and publisher) and the path
     * to send (mount prefix taken off); the client's identity is the name of the key it presented
     * (empty when keys are not required), which a terminated session's turns queue under.
     */
    public record Target(ProviderAssembly assembly, String rawPath, java.util.Optional<String> client) {
        String provider() {
            return assembly.name();
        }

        URI upstream() {
            return assembly.config().upstream();
        }

        HeaderRewrite rewrite() {
            return assembly.rewrite();
        }

        Duration timeout() {
            return assembly.config().retry().upstreamTimeout();
        }

        CircuitBreaker breaker() {
            return assembly.breaker();
        }

        ExchangePublisher publisher() {
            return assembly.publisher();
        }
    }

    /** Picks the target of an upgrade from the raw path and the request headers; null lets normal routing answer. */
    @FunctionalInterface
    public interface Resolver {
        Target resolve(String rawPath, Headers headers);
    }

    private final String protocol;
    private final Resolver resolver;
    private final ExchangeLog log;

    /** @param protocol the {@code Upgrade} token this upgrader is registered for, e.g. {@code websocket} */
    public UpgradeTunnel(String protocol, Resolver resolver, ExchangeLog log) {
        this.protocol = protocol;
        this.resolver = resolver;
        this.log = log;
    }

    @Override
    public String supportedProtocol() {
        return protocol;
    }

    @Override
    public ServerConnection upgrade(ConnectionContext ctx, HttpPrologue prologue, WritableHeaders<?> headers) {
        Target target = resolver.resolve(prologue.uriPath().rawPath(), headers);
        if (target == null) {
            return null; // the normal routing answers it (health, 404, 401)
        }
        HandshakeExchange h = new HandshakeExchange(target, prologue, headers);
        Admission admission = target.breaker().allow();
        if (admission instanceof Admission.Rejected) {
            LocalFailure open = LocalFailure.circuitOpen(target.breaker().snapshot().nextProbeIn());
            writeQuietly(ctx.dataWriter(), localAnswer("503 Service Unavailable", open, target.rawPath()));
            h.end(503, Outcome.FAILED, EndReason.CIRCUIT_OPEN, null);
            return new Answered();
        }
        long deadline = h.start + target.timeout().toNanos();
        List<String> offered = headers.get(HeaderNames.UPGRADE).allValues();
        h.trace.attemptStarted();
        UpstreamSocket socket = null;
        ResponseHead head;
        try {
            socket = UpstreamSocket.connect(target.upstream(), target.assembly().upstreams().main().dialing().tls(), target.timeout());
            socket.send(requestHead(prologue, headers, offered, target));
            head = ResponseHead.parse(socket.readHead(deadline));
            h.trace.upstreamHeaders(head.status());
        } catch (IOException | RuntimeException e) {
            return badGateway(new Handshake(ctx, h, admission, socket), TransportErrors.describe(e), TransportErrors.forClient(e));
        }
        Handshake hs = new Handshake(ctx, h, admission, socket);
        if (!head.isHttp()) {
            // Not HTTP: a plain request gets 502 for this, and so does an upgrade.
            return badGateway(hs, "\"response is not HTTP\"", "the upstream's answer is not HTTP");
        }
        Optional<String> refusal = head.status() == 101
                ? UpgradeProtocols.refusal(offered, head.values("Upgrade")) : Optional.empty();
        if (refusal.isPresent()) {
            return badGateway(hs, '"' + refusal.get() + '"', PROTOCOL_REFUSED);
        }
        h.trace.clientHeaders();
        try {
            ctx.dataWriter().writeNow(BufferData.create(head.bytes()));
        } catch (RuntimeException e) {
            socket.close();
            target.breaker().cancel(admission);
            h.end(head.status(), Outcome.ABORTED, EndReason.CLIENT_LEFT, head);
            return new Answered();
        }
        return head.status() == 101 ? splice(hs, head) : relayRefusal(hs, head, deadline);
    }

    /**
     * A handshake under way, from the moment it holds the breaker's admission: what every ending
     * needs to answer the client, settle the admission and close the upstream.
     *
     * @param socket the upstream connection, or null when connecting failed
     */
    private record Handshake(ConnectionContext ctx, HandshakeExchange exchange, Admission admission, UpstreamSocket socket) {
        CircuitBreaker breaker() {
            return exchange.target.breaker();
        }
    }

    private static ServerConnection splice(Handshake hs, ResponseHead head) {
        BreakerVerdict.of(true, FailureClass.SUCCESS, Duration.ZERO, false).report(hs.breaker(), hs.admission());
        hs.exchange().end(101, Outcome.CLEAN, EndReason.UPGRADED, head);
        try {
            hs.socket().untimed();
        } catch (IOException e) {
            hs.socket().close();
            return new Answered();
        }
        return TunnelSplice.tunnel(hs.ctx().dataReader(), hs.ctx().dataWriter(), hs.socket());
    }

    /**
     * A refused upgrade: its body (its declared length, else until the upstream closes) within what
     * is left of {@code -upstream-timeout}, then the client connection closes.
     */
    private static ServerConnection relayRefusal(Handshake hs, ResponseHead head, long deadline) {
        FailureClass failure = UpstreamFailures.classify(head.status(), head, Instant.now());
        return TunnelSplice.refusedBody(hs.ctx().dataWriter(), hs.socket(), head.contentLength(), deadline, complete -> {
            // the verdict plain requests get: a body cut short is an upstream failure, a bare 4xx says nothing
            BreakerVerdict.of(complete, complete ? failure : FailureClass.TRANSPORT_ERROR, Duration.ZERO, false)
                    .report(hs.breaker(), hs.admission());
            hs.exchange().end(head.status(), complete ? Outcome.CLEAN : Outcome.ABORTED,
                    complete ? EndReason.COMPLETED : EndReason.UPSTREAM_BROKE_OFF, head);
        });
    }

    /** {@code 502} naming {@code cause}: one log line naming the error, a breaker failure, one failed record. */
    private ServerConnection badGateway(Handshake hs, String error, String cause) {
        HandshakeExchange h = hs.exchange();
        log.info("upstream error provider=" + h.target.provider() + " method=" + h.method + " path=" + h.target.rawPath()
                + " error=" + error);
        if (hs.socket() != null) {
            hs.socket().close();
        }
        hs.breaker().recordFailure(hs.admission(), Duration.ZERO);
        LocalFailure failure = LocalFailure.unreachable(cause, shaper.config.UpstreamUrl.display(h.target.upstream()));
        writeQuietly(hs.ctx().dataWriter(), localAnswer("502 Bad Gateway", failure, h.target.rawPath()));
        h.end(502, Outcome.FAILED, EndReason.UPSTREAM_UNREACHABLE, null);
        return new Answered();
    }

    /** The handshake as sent upstream: end-to-end fields, the provider's rewrite, then the upgrade itself. */
    private static byte[] requestHead(HttpPrologue prologue, Headers headers, List<String> offered, Target target) {
        URI up = target.upstream();
        StringBuilder sb = new StringBuilder(512);
        sb.append(prologue.method().text()).append(' ')
                .append(Upstreams.pathAndQuery(up, target.rawPath(), prologue.query().rawValue()))
                .append(" HTTP/1.1\r\n");
        sb.append("Host: ").append(up.getRawAuthority()).append("\r\n");
        WritableHeaders<?> out = WritableHeaders.create();
        HeaderPolicy.forEachRequestHeader(headers, out::add);
        target.rewrite().apply(out);
        for (Header field : out) {
            for (String v : field.allValues()) {
                sb.append(field.name()).append(": ").append(v).append("\r\n");
            }
        }
        sb.append("Connection: Upgrade\r\n");
        sb.append("Upgrade: ").append(String.join(", ", offered)).append("\r\n\r\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The proxy's own answer to a handshake, in the dialect the path speaks (JSON), else plain text, as for plain requests. */
    private static String localAnswer(String statusLine, LocalFailure failure, String rawPath) {
        java.util.Optional<String> json = failure.jsonAt(rawPath);
        String body = json.orElse(failure.message() + "\n");
        String retry = failure.retryAfter().isPositive() ? "Retry-After: " + failure.retryAfter().toSeconds() + "\r\n" : "";
        return "HTTP/1.1 " + statusLine + "\r\nContent-Type: " + (json.isPresent() ? "application/json" : "text/plain")
                + "\r\nX-Content-Type-Options: nosniff\r\n" + retry + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length
                + "\r\nConnection: close\r\n\r\n" + body;
    }

    private static void writeQuietly(DataWriter writer, String response) {
        try {
            writer.writeNow(BufferData.create(response.getBytes(StandardCharsets.UTF_8)));
        } catch (RuntimeException ignored) {
            // the client is gone; nothing else to tell it
        }
    }

    /** A connection that has already been answered: returning from {@code handle} closes it. */
    private static final class Answered implements ServerConnection {
        @Override
        public void handle(io.helidon.common.concurrency.limits.Limit limit) {
        }

        @Override
        public Duration idleTime() {
            return Duration.ZERO;
        }

        @Override
        public void close(boolean interrupt) {
        }
    }

    @Override
    public String toString() {
        return "UpgradeTunnel[" + protocol.toLowerCase(Locale.ROOT) + "]";
    }
}
