package shaper.proxy.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Header;
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
 * closes before a single byte of an answer) is sent once more on a fresh connection when its body
 * is in memory: the upstream closed that connection while it idled, so the request never reached it.
 */
public final class UpstreamClient implements AutoCloseable {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] VERSION = " HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final ConnectionPool pool;
    private final String host;
    private final boolean keepAlive;

    /**
     * @param base      the upstream base URL ({@code http} or {@code https})
     * @param poolSize  idle keep-alive connections kept
     * @param keepAlive false: every request on a fresh connection, with {@code Connection: close}
     * @param nanoTime  the clock that ages idle connections (the provider's)
     */
    public UpstreamClient(URI base, int poolSize, boolean keepAlive, LongSupplier nanoTime) {
        UpstreamAddress address = UpstreamAddress.of(base);
        this.pool = new ConnectionPool(address, keepAlive ? poolSize : 0, nanoTime);
        this.keepAlive = keepAlive;
        this.host = address.hostField();
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
            if (!c.reused() || !request.body().replayable() || !diedWhileIdle(e)) {
                throw e.cause();
            }
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
            throw new DeadConnection(e);
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
            while (head.status().code() >= 100 && head.status().code() < 200 && head.status().code() != 101) {
                head = ResponseHead.read(in); // 100 Continue, 103 Early Hints: interim, not the answer
            }
        } catch (IOException e) {
            if (in.consumed() == before && !(e instanceof InterruptedIOException)) {
                throw new DeadConnection(e instanceof EOFException ? new NoAnswer() : e);
            }
            throw e;
        }
        Framing framing = Framing.of(method, head);
        boolean reusable = keepAlive && framing != Framing.UNTIL_CLOSE && !head.http10()
                && !head.headers().containsToken(HeaderValues.CONNECTION_CLOSE);
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
