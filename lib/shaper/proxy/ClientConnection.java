package shaper.proxy;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.Socket;

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
 * and its socket are not public API, so they are reached by reflection; if that ever fails, {@link #isOpen()}
 * answers {@code true} and the proxy falls back to noticing the disconnect at its next write.
 *
 * <p>Only watch a connection whose request body has been read completely: the read-ahead byte
 * of an unread body would end the watch without a verdict.
 */
public final class ClientConnection {
    private static final Field CONTEXT = field("io.helidon.webserver.http1.Http1ServerRequest", "ctx");
    private static final Field PLAIN_SOCKET = field("io.helidon.common.socket.PlainSocket", "delegate");

    private final HelidonSocket socket;
    private boolean watching;

    /**
     * Closes the connection once its response has been written (a client that sent
     * {@code Connection: close}); the peer sees the whole response, then end of stream.
     */
    public void closeAfterResponse() {
        if (socket != null) {
            socket.close();
        }
    }

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
        if (socket != null && !watching && lengthenMonitor()) {
            watching = true;
            socket.idle();
        }
    }

    /**
     * Helidon's monitor gives up (and reports the socket closed) after one socket read timeout,
     * and an unset timeout makes that a single 101 ms read. Raising an unset timeout to the
     * maximum keeps the monitor alive for any realistic wait; reads then still block as before.
     */
    private boolean lengthenMonitor() {
        if (PLAIN_SOCKET == null) {
            return false;
        }
        try {
            if (PLAIN_SOCKET.get(socket) instanceof Socket s) {
                if (s.getSoTimeout() == 0) {
                    s.setSoTimeout(Integer.MAX_VALUE);
                }
                return true;
            }
            return false;
        } catch (ReflectiveOperationException | IOException | RuntimeException e) {
            return false;
        }
    }

    /** False once the client is known to have closed; true while open or when it cannot be known. */
    public boolean isOpen() {
        return socket == null || !watching || socket.isConnected();
    }

    private static Field field(String className, String name) {
        try {
            Class<?> c = Class.forName(className);
            Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
