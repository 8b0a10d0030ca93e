package shaper.proxy.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;

/**
 * One upstream's HTTP/1.1 client: requests go out exactly as given (method, raw target, the header
 * fields in order, plus {@code Host}, the body's framing and {@code Connection}), nothing is added
 * on its own (no {@code User-Agent}, no {@code Accept}), redirects are answers like any other and
 * content codings are never touched.
 *
 * <p>A request sent on a pooled connection that turns out dead (the write fails, or the upstream
 * closes before a single byte of an answer) is sent once more on a fresh connection, and logged,
 * only when sending it twice is harmless (RFC 9110 section 9.2.2): its method is idempotent, or it
 * carries an {@code Idempotency-Key}, and its body is in memory. Once a request's bytes have left,
 * TCP cannot tell whether the upstream read them before it closed, so any other request fails with
 * the transport error and the attempt loop's retry budget decides.
 */
public final class UpstreamClient implements AutoCloseable {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] VERSION = " HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1);

    /** Interim (1xx) heads accepted before the final one: a real upstream sends one or two. */
    private static final int MAX_INTERIM = 8;
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");
    private static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");

    private final ConnectionPool pool;
    private final String host;
    private final boolean keepAlive;
    private final Consumer<String> notices;

    /**
     * @param base     the upstream base URL ({@code http} or {@code https})
     * @param pooling  pool size, keep-alive and idle timeout
     * @param dialing  how connections are opened: the forward proxy, the TLS trust and client key
     * @param nanoTime the clock that ages idle connections (the provider's)
     * @param notices  where a resend on a fresh connection is logged
     */
    public UpstreamClient(URI base, Pooling pooling, Dialing dialing, LongSupplier nanoTime, Consumer<String> notices) {
        UpstreamAddress address = UpstreamAddress.of(base);
        this.pool = new ConnectionPool(address, dialing, pooling.keepAlive() ? pooling.size() : 0, pooling.idleTimeout(), nanoTime);
        this.keepAlive = pooling.keepAlive();
        this.host = address.hostField();
        this.notices = notices;
    }

    /**
     * One request to send.
     *
     * @param target the request target, written verbatim
     * @param fields the header fields to send, in order ({@code Host}, framing and {@code Connection} are added here)
     */
    public record Request(String method, String target, Headers fields, OutgoingBody body) {
    }

    /**
     * Sends one request and reads the answer's head.
     *
     * @param timeout  bound of every read (and of connecting, at most 10 s)
     * @param bodySent called once the body has been written and flushed
     * @throws IOException when the upstream cannot be reached or breaks off before its head is complete
     */
    public UpstreamResponse send(Request request, Duration timeout, Runnable bodySent) throws IOException {
        byte[] head = head(request.method(), request.target(), request.fields(), request.body());
        UpstreamConnection c = pool.take(timeout);
        try {
            return exchange(c, request, head, timeout, bodySent);
        } catch (DeadConnection e) {
            if (!c.reused() || !harmlessTwice(request) || !diedWhileIdle(e)) {
                throw e.cause();
            }
            notices.accept("upstream resend method=" + request.method() + " error=\"" + WireSyntax.printable(String.valueOf(e.cause().getMessage())).replace('"', '\'')
                    + "\" note=\"a reused connection failed before any answer byte; sent once more on a fresh connection\"");
        }
        try {
            return exchange(pool.fresh(timeout), request, head, timeout, bodySent);
        } catch (DeadConnection e) {
            throw e.cause();
        }
    }

    private UpstreamResponse exchange(UpstreamConnection c, Request request, byte[] head, Duration timeout, Runnable bodySent)
            throws IOException {
        OutgoingBody body = request.body();
        try {
            c.readTimeout(timeout);
            OutputStream out = c.out();
            out.write(head);
            if (body.length() >= 0) {
                body.writeTo(out);
            } else {
                ChunkedOutput chunked = new ChunkedOutput(out);
                body.writeTo(chunked);
                chunked.finish();
            }
            out.flush();
        } catch (IOException e) {
            c.close(); // a half-sent request must end now, and its connection is never reused
            throw new DeadConnection(c.explain(e));
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        try {
            bodySent.run();
            return answer(c, request.method());
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private UpstreamResponse answer(UpstreamConnection c, String method) throws IOException {
        WireInput in = c.in();
        long before = in.consumed();
        ResponseHead head;
        try {
            head = ResponseHead.read(in);
            for (int interim = 1; head.status().code() < 200; interim++) {
                if (head.status().code() == 101) {
                    // upgrades go through their own tunnel; a request sent here never asks for one
                    throw new MalformedAnswer("upstream switched protocols (101) though no upgrade was asked for");
                }
                if (interim > MAX_INTERIM) {
                    throw new MalformedAnswer("upstream sent more than " + MAX_INTERIM + " interim (1xx) heads");
                }
                head = ResponseHead.read(in); // 100 Continue, 103 Early Hints: interim, not the answer
            }
        } catch (IOException e) {
            if (in.consumed() == before && !(e instanceof InterruptedIOException)) {
                throw new DeadConnection(c.explain(e instanceof EOFException ? new NoAnswer() : e));
            }
            throw e;
        }
        Framing framing = Framing.of(method, head);
        boolean reusable = keepAlive && framing != Framing.UNTIL_CLOSE && !head.http10() && !head.ambiguous()
                && !head.headers().containsToken(HeaderValues.CONNECTION_CLOSE);
        c.keepAliveTimeout(KeepAliveTimeout.of(head.headers()));
        ResponseBody body = switch (framing) {
            case NONE -> ResponseBody.empty(in);
            case LENGTH -> ResponseBody.ofLength(in, head.headers().contentLength().orElseThrow());
            case CHUNKED -> ResponseBody.chunked(in);
            case UNTIL_CLOSE -> ResponseBody.untilClose(in);
        };
        return new UpstreamResponse(head, body, c, pool, reusable);
    }

    private byte[] head(String method, String target, Headers fields, OutgoingBody body) {
        BufferData buf = BufferData.growing(512);
        buf.writeAscii(method);
        buf.write(' ');
        buf.write(target.getBytes(StandardCharsets.ISO_8859_1));
        buf.write(VERSION);
        for (Header h : fields) {
            h.writeHttp1Header(buf);
        }
        HeaderValues.create(HeaderNames.HOST, host).writeHttp1Header(buf);
        if (body != OutgoingBody.NONE) {
            (body.length() >= 0 ? HeaderValues.create(HeaderNames.CONTENT_LENGTH, body.length())
                    : HeaderValues.TRANSFER_ENCODING_CHUNKED).writeHttp1Header(buf);
        }
        (keepAlive ? HeaderValues.CONNECTION_KEEP_ALIVE : HeaderValues.CONNECTION_CLOSE).writeHttp1Header(buf);
        buf.write(CRLF);
        byte[] bytes = new byte[buf.available()];
        buf.read(bytes);
        return bytes;
    }

    /** RFC 9110 section 9.2.2: sending it twice has the effect of sending it once, and it can be sent twice. */
    private static boolean harmlessTwice(Request request) {
        return request.body().replayable()
                && (IDEMPOTENT.contains(request.method()) || request.fields().contains(IDEMPOTENCY_KEY));
    }

    /** A pooled connection that the upstream had closed while it idled: nothing of the request was processed. */
    private static boolean diedWhileIdle(DeadConnection d) {
        return !(d.getCause() instanceof InterruptedIOException)
                && !(d.getCause() instanceof ClosedChannelException) && !Thread.currentThread().isInterrupted();
    }

    /** The upstream closed the connection before the first byte of an answer. */
    public static final class NoAnswer extends EOFException {
        NoAnswer() {
            super("the upstream closed the connection before answering");
        }
    }

    /** A failure before the upstream answered anything: the write failed, or end of stream before the status line. */
    static final class DeadConnection extends IOException {
        DeadConnection(IOException cause) {
            super(cause.getMessage(), cause);
        }

        IOException cause() {
            return (IOException) getCause();
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
