package shaper.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.observe.ExchangeLog;
import shaper.observe.EndReason;
import shaper.observe.ExchangePublisher;
import shaper.observe.ExchangeTrace;
import shaper.observe.Outcome;
import shaper.observe.Provenance;
import shaper.observe.RouteKind;
import shaper.retry.FailureClass;
import shaper.retry.HeaderLookup;
import shaper.retry.UpstreamFailures;

/**
 * Tunnels {@code 101 Switching Protocols} upgrades (WebSocket) to the upstream: the handshake is
 * forwarded with the same header hygiene as any request, the upstream's answer is relayed, and on
 * {@code 101} the two sockets are spliced byte for byte until either side closes. A failed
 * handshake or an unreachable upstream ends the client connection after an error response.
 *
 * <p>Same rules as plain requests: the circuit breaker is asked first ({@code 503} when open) and
 * told the outcome; the handshake and a refused upgrade's body are bounded by
 * {@code -upstream-timeout}; an answer that is not HTTP is {@code 502}; a refused upgrade whose body
 * is cut short is logged {@code aborted}. An established tunnel is not bounded: it lives as long
 * as its peers keep it.
 */
public final class UpgradeTunnel implements Http1Upgrader {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_RESPONSE_HEAD = 64 * 1024;
    private static final String BAD_GATEWAY_BODY = "bad gateway: upstream unreachable\n";
    private static final String BAD_GATEWAY = "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: "
            + BAD_GATEWAY_BODY.length() + "\r\nConnection: close\r\n\r\n" + BAD_GATEWAY_BODY;

    /**
     * Where an upgrade request goes: the provider's assembly (upstream, header rewrite, breaker,
     * publisher, timeout) and the path to send (mount prefix taken off).
     */
    public record Target(ProviderAssembly assembly, String rawPath) {
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
        Handshake h = new Handshake(target, prologue, headers);
        Admission admission = target.breaker().allow();
        if (admission instanceof Admission.Rejected) {
            writeQuietly(ctx.dataWriter(), localAnswer(503, "Service Unavailable", LocalAnswers.CIRCUIT_OPEN));
            h.end(503, Outcome.FAILED, EndReason.CIRCUIT_OPEN, null);
            return new Finished();
        }
        long deadline = h.start + target.timeout().toNanos();
        h.trace.attemptStarted();
        Socket socket = null;
        byte[] head;
        try {
            socket = connect(target.upstream(), target.timeout());
            socket.getOutputStream().write(requestHead(prologue, headers, target));
            socket.getOutputStream().flush();
            head = readHead(socket, deadline);
            h.trace.upstreamHeaders();
        } catch (IOException | RuntimeException e) {
            return badGateway(ctx, h, admission, socket, TransportErrors.describe(e));
        }
        int status = statusOf(head);
        if (status < 100) {
            // Not HTTP: a plain request gets 502 for this, and so does an upgrade.
            return badGateway(ctx, h, admission, socket, "\"response is not HTTP\"");
        }
        h.trace.clientHeaders();
        try {
            ctx.dataWriter().writeNow(BufferData.create(head));
        } catch (RuntimeException e) {
            closeQuietly(socket);
            target.breaker().cancel(admission);
            h.end(status, Outcome.ABORTED, EndReason.CLIENT_LEFT, head);
            return new Finished();
        }
        if (status == 101) {
            target.breaker().recordSuccess(admission);
            // One record when the handshake is relayed: the tunnel's later bytes are not an exchange.
            h.end(101, Outcome.CLEAN, EndReason.UPGRADED, head);
            try {
                socket.setSoTimeout(0); // an upgraded connection may idle as long as its peers like
            } catch (IOException e) {
                closeQuietly(socket);
                return new Finished();
            }
            return new TunnelSplice(ctx.dataReader(), ctx.dataWriter(), socket, true, -1, 0, complete -> { });
        }
        // A refused upgrade: relay its body (its declared length, else until the upstream closes),
        // within what is left of -upstream-timeout, then close the client connection. Like a plain
        // request, a body cut short is aborted and an upstream failure to the breaker.
        FailureClass failure = UpstreamFailures.classify(status, headerLookup(head), Instant.now());
        return new TunnelSplice(ctx.dataReader(), ctx.dataWriter(), socket, false, contentLength(head), deadline, complete -> {
            if (!complete) {
                target.breaker().recordFailure(admission, java.time.Duration.ZERO);
            } else if (failure.isUpstreamFailure()) {
                target.breaker().recordFailure(admission, java.time.Duration.ZERO);
            } else {
                target.breaker().recordSuccess(admission);
            }
            h.end(status, complete ? Outcome.CLEAN : Outcome.ABORTED, complete ? EndReason.COMPLETED : EndReason.UPSTREAM_BROKE_OFF, head);
        });
    }

    /** The facts of one handshake that its log line needs. */
    /** One upgrade request's exchange: traced from arrival, ended by exactly one record. */
    private static final class Handshake {
        final Target target;
        final String method;
        final long start = System.nanoTime();
        final ExchangeTrace trace;
        final WritableHeaders<?> request;

        Handshake(Target target, HttpPrologue prologue, WritableHeaders<?> request) {
            this.target = target;
            this.method = prologue.method().text();
            this.request = request;
            this.trace = target.publisher().journal().begin(method, target.rawPath(), prologue.query().rawValue());
            trace.classified(RouteKind.PASSTHROUGH, "");
            trace.queueEnded(false); // an upgrade takes no slot
        }

        /** @param responseHead the relayed response head, or null when none was relayed */
        void end(int status, Outcome outcome, EndReason reason, byte[] responseHead) {
            Provenance provenance = reason == EndReason.COMPLETED && status >= 400 ? Provenance.UPSTREAM_HTTP : null;
            target.publisher().publish(trace.finish(status, outcome, reason, provenance, JournalHeaders.of(request),
                    responseHead == null ? List.of() : headerLines(responseHead)));
        }
    }

    /** The header lines of a response head (the journal's copy, and {@link #headerLookup}'s source). */
    private static List<shaper.observe.Header> headerLines(byte[] head) {
        List<shaper.observe.Header> out = new ArrayList<>();
        String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\\r\\n");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                out.add(new shaper.observe.Header(lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()));
            }
        }
        return out;
    }

    private ServerConnection badGateway(ConnectionContext ctx, Handshake h, Admission admission, Socket socket, String error) {
        log.info("upstream error provider=" + h.target.provider() + " method=" + h.method + " path=" + h.target.rawPath()
                + " error=" + error);
        if (socket != null) {
            closeQuietly(socket);
        }
        h.target.breaker().recordFailure(admission, java.time.Duration.ZERO);
        writeQuietly(ctx.dataWriter(), BAD_GATEWAY);
        h.end(502, Outcome.FAILED, EndReason.UPSTREAM_UNREACHABLE, null);
        return new Finished();
    }

    private static String localAnswer(int status, String reason, String body) {
        return "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain\r\nContent-Length: " + body.length()
                + "\r\nConnection: close\r\n\r\n" + body;
    }

    /** The header lines of a response head, for failure classification. */
    private static HeaderLookup headerLookup(byte[] head) {
        List<shaper.observe.Header> lines = headerLines(head);
        return name -> lines.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(shaper.observe.Header::value).toList();
    }

    private static Socket connect(URI upstream, Duration timeout) throws IOException {
        boolean tls = upstream.getScheme().equalsIgnoreCase("https");
        int port = upstream.getPort() >= 0 ? upstream.getPort() : (tls ? 443 : 80);
        Socket plain = new Socket();
        try {
            plain.setTcpNoDelay(true);
            plain.connect(new InetSocketAddress(upstream.getHost(), port), (int) Math.min(CONNECT_TIMEOUT.toMillis(), timeout.toMillis()));
            plain.setSoTimeout(millis(timeout));
            if (!tls) {
                return plain;
            }
            SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                    .createSocket(plain, upstream.getHost(), port, true);
            SSLParameters params = ssl.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            ssl.setSSLParameters(params);
            ssl.startHandshake();
            return ssl;
        } catch (IOException | RuntimeException e) {
            closeQuietly(plain);
            throw e;
        }
    }

    /** The declared Content-Length of a response head, or -1. */
    static long contentLength(byte[] head) {
        for (String line : new String(head, StandardCharsets.ISO_8859_1).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                try {
                    return Long.parseLong(line.substring(colon + 1).trim());
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    private byte[] requestHead(HttpPrologue prologue, WritableHeaders<?> headers, Target target) {
        URI up = target.upstream();
        StringBuilder sb = new StringBuilder(512);
        sb.append(prologue.method().text()).append(' ')
                .append(UpstreamUris.pathAndQuery(up, target.rawPath(), prologue.query().rawValue()))
                .append(" HTTP/1.1\r\n");
        sb.append("Host: ").append(up.getRawAuthority()).append("\r\n");
        WritableHeaders<?> out = WritableHeaders.create();
        HeaderPolicy.forEachRequestHeader(headers, (name, values) -> out.add(HeaderValues.create(HeaderNames.create(name), values)));
        target.rewrite().apply(out);
        for (Header h : out) {
            for (String v : h.allValues()) {
                sb.append(h.name()).append(": ").append(v).append("\r\n");
            }
        }
        sb.append("Connection: Upgrade\r\n");
        sb.append("Upgrade: ").append(headers.get(io.helidon.http.HeaderNames.UPGRADE).get()).append("\r\n\r\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Reads the upstream's status line and headers, up to the blank line, bounded in size and by the call's deadline. */
    private static byte[] readHead(Socket socket, long deadline) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[MAX_RESPONSE_HEAD];
        int n = 0;
        while (n < buf.length) {
            socket.setSoTimeout(remainingMillis(deadline));
            int b = in.read();
            if (b < 0) {
                throw new IOException("upstream closed during the upgrade handshake");
            }
            buf[n++] = (byte) b;
            if (n == 9 && !startsLikeHttp(buf)) {
                return java.util.Arrays.copyOf(buf, n); // not HTTP: statusOf says so
            }
            if (n >= 4 && buf[n - 4] == '\r' && buf[n - 3] == '\n' && buf[n - 2] == '\r' && buf[n - 1] == '\n') {
                return java.util.Arrays.copyOf(buf, n);
            }
        }
        throw new IOException("upstream upgrade response head exceeds " + MAX_RESPONSE_HEAD + " bytes");
    }

    private static boolean startsLikeHttp(byte[] b) {
        return new String(b, 0, 9, StandardCharsets.ISO_8859_1).matches("HTTP/1\\.[01] ");
    }

    /** Milliseconds left before {@code deadline}, at least 1 (0 would mean no timeout); a passed deadline throws. */
    static int remainingMillis(long deadline) throws java.net.SocketTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new java.net.SocketTimeoutException("upgrade exceeded -upstream-timeout");
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000));
    }

    private static int millis(Duration d) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
    }

    private static int statusOf(byte[] head) {
        String line = new String(head, 0, Math.min(head.length, 64), StandardCharsets.ISO_8859_1);
        if (!line.matches("(?s)HTTP/1\\.[01] [1-5][0-9][0-9][ \r].*")) {
            return 0;
        }
        return Integer.parseInt(line.substring(9, 12));
    }

    private static void writeQuietly(DataWriter writer, String response) {
        try {
            writer.writeNow(BufferData.create(response.getBytes(StandardCharsets.ISO_8859_1)));
        } catch (RuntimeException ignored) {
            // the client is gone; nothing else to tell it
        }
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
    }

    /** A connection that has already been answered; returning from handle closes it. */
    private static final class Finished implements ServerConnection {
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
