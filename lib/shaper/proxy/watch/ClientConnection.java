package shaper.proxy.watch;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.channels.SocketChannel;

import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.ServerRequest;

/**
 * The client connection of one request, for the moments the handler neither reads nor writes it
 * (queued for a slot, waiting out a retry backoff): {@link #watch()} hands the channel to the
 * shared {@link SelectorWatch}, which notices end of stream without reading anything, and
 * {@link #unwatch()} takes it back before the connection is used again.
 *
 * <p>Rules: watch only once the request body has been read completely and while nothing is
 * written to the client; always {@link #unwatch()} before writing or returning to Helidon (the
 * handler's {@code finally} does). Helidon exposes neither the connection context nor its
 * channel, so both are reached by reflection; if that fails, {@link #isOpen()} answers
 * {@code true} and a departed client is noticed at the proxy's next write instead.
 */
public final class ClientConnection {
    private static final Field CONTEXT = HelidonInternals.REQUEST_CONTEXT;
    private static final Field NIO_CHANNEL = HelidonInternals.NIO_CHANNEL;

    private final HelidonSocket socket;
    private final SocketChannel channel;
    private final SelectorWatch selector;
    private SelectorWatch.Handle watch;
    private volatile boolean gone;
    /** Whether a connection that cannot be watched is still open, as its owner knows; null when nobody knows. */
    private final java.util.function.BooleanSupplier open;

    private ClientConnection(HelidonSocket socket, SocketChannel channel, SelectorWatch selector) {
        this(socket, channel, selector, null);
    }

    private ClientConnection(HelidonSocket socket, SocketChannel channel, SelectorWatch selector, java.util.function.BooleanSupplier open) {
        this.socket = socket;
        this.channel = channel;
        this.selector = selector;
        this.open = open;
    }

    /**
     * A connection whose reader already runs elsewhere (a WebSocket session's frame loop), so it is never
     * watched: {@code open} says whether the client is still there.
     */
    public static ClientConnection owned(java.util.function.BooleanSupplier open) {
        return new ClientConnection(null, null, null, open);
    }

    public static ClientConnection of(ServerRequest request, SelectorWatch selector) {
        if (CONTEXT != null && NIO_CHANNEL != null) {
            try {
                if (CONTEXT.get(request) instanceof ConnectionContext ctx) {
                    HelidonSocket socket = ctx.serverSocket();
                    Object ch = NIO_CHANNEL.getDeclaringClass().isInstance(socket) ? NIO_CHANNEL.get(socket) : null;
                    return new ClientConnection(socket, ch instanceof SocketChannel sc ? sc : null, selector);
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                // unsupported socket type: cannot watch, cannot close early
            }
        }
        return new ClientConnection(null, null, selector);
    }

    /** Starts watching (once). Call only when the body has been read and nothing is being written. */
    public void watch() {
        if (channel != null && watch == null && selector != null) {
            watch = selector.watch(channel);
        }
    }

    /**
     * A watch owned by the caller rather than by this connection (the upstream call watch arms it
     * from its own thread); null when the connection cannot be watched.
     */
    SelectorWatch.Handle openWatch() {
        return channel != null && selector != null ? selector.watch(channel) : null;
    }

    /** Ends the watch, remembering its verdict; the channel is in blocking mode again. Idempotent. */
    public void unwatch() {
        if (watch != null) {
            gone |= watch.gone();
            watch.stop();
            gone |= watch.gone();
            watch = null;
        }
    }

    /** False once the client is known to have closed; true while open or when it cannot be known. */
    public boolean isOpen() {
        return !(gone || (watch != null && watch.gone()) || (open != null && !open.getAsBoolean()));
    }

    /**
     * Closes the connection once its response has been written (a client that sent
     * {@code Connection: close}); the peer sees the whole response, then end of stream.
     */
    public void closeAfterResponse() {
        if (socket != null) {
            socket.close();
        } else if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // already closing
            }
        }
    }
}
