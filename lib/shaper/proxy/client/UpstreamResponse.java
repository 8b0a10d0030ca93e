package shaper.proxy.client;

import java.io.InputStream;

import io.helidon.http.ClientResponseHeaders;
import io.helidon.http.Status;

/**
 * One upstream answer: its head and its body stream. Closing it hands the connection back to the
 * pool when the body was read to its end and both sides allow keep-alive, and closes the connection
 * otherwise (an unread rest is never read just to save the connection). Close is idempotent.
 */
public final class UpstreamResponse implements AutoCloseable {
    private final ResponseHead head;
    private final ResponseBody body;
    private final UpstreamConnection connection;
    private final ConnectionPool pool;
    private final boolean reusable;
    private AutoCloseable decoder;
    private boolean closed;

    UpstreamResponse(ResponseHead head, ResponseBody body, UpstreamConnection connection, ConnectionPool pool, boolean reusable) {
        this.head = head;
        this.body = body;
        this.connection = connection;
        this.pool = pool;
        this.reusable = reusable;
    }

    public Status status() {
        return head.status();
    }

    public ClientResponseHeaders headers() {
        return head.headers();
    }

    /** The body, decoded from its transfer framing (never from its content coding). */
    public InputStream inputStream() {
        return body;
    }

    /**
     * A decoding stream read over this body (the gzip or deflate decoder of {@code -inspect-sse}), closed
     * with the answer so its native inflater is freed now rather than by the garbage collector.
     */
    public void closeWith(AutoCloseable decoder) {
        this.decoder = decoder;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (decoder != null) {
            try {
                decoder.close(); // the body under it ignores close: the connection's fate is decided below
            } catch (Exception ignored) {
                // freeing the decoder is best effort
            }
        }
        if (reusable && body.complete()) {
            pool.giveBack(connection);
        } else {
            connection.close();
        }
    }
}
