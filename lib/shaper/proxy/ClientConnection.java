package shaper.proxy;

import java.lang.reflect.Field;

import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.ServerRequest;

/**
 * Tells whether the client of a request is still connected while the handler is not reading or
 * writing (queued for a slot, waiting for the upstream).
 *
 * <p>Helidon offers no disconnect notification, but its sockets can watch themselves:
 * {@link HelidonSocket#idle()} starts a monitor that reads one byte ahead (handing it back to the
 * next real read) and marks the socket closed on end-of-stream. The request's connection context
 * is not public API, so it is reached once by reflection; if that ever fails, {@link #isOpen()}
 * answers {@code true} and the proxy falls back to noticing the disconnect at its next write.
 *
 * <p>Only watch a connection whose request body has been read completely: the read-ahead byte
 * of an unread body would end the watch without a verdict.
 */
public final class ClientConnection {
    private static final Field CONTEXT = contextField();

    private final HelidonSocket socket;
    private boolean watching;

    private ClientConnection(HelidonSocket socket) {
        this.socket = socket;
    }

    public static ClientConnection of(ServerRequest request) {
        if (CONTEXT == null) {
            return new ClientConnection(null);
        }
        try {
            Object ctx = CONTEXT.get(request);
            return new ClientConnection(ctx instanceof ConnectionContext c ? c.serverSocket() : null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new ClientConnection(null);
        }
    }

    /** Starts watching (once); afterwards {@link #isOpen()} turns false soon after the client closes. */
    public void watch() {
        if (socket != null && !watching) {
            watching = true;
            socket.idle();
        }
    }

    /** False once the client is known to have closed; true while open or when it cannot be known. */
    public boolean isOpen() {
        return socket == null || !watching || socket.isConnected();
    }

    private static Field contextField() {
        try {
            Class<?> c = Class.forName("io.helidon.webserver.http1.Http1ServerRequest");
            Field f = c.getDeclaredField("ctx");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
