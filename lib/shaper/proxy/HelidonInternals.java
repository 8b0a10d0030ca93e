package shaper.proxy;

import java.io.OutputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import io.helidon.webclient.api.ClientConnection;

/**
 * Every reach into Helidon 4.5.0 internals, in one place, so an upgrade that breaks one is
 * announced at startup ({@link #problems()}) instead of silently degrading, and a test can
 * insist that the list is empty.
 *
 * <ul>
 *   <li>{@code Http1ServerRequest.ctx}: the connection context of a request, for its socket.</li>
 *   <li>{@code NioSocket.delegate}: the NIO channel of that socket, for the end-of-stream watch.</li>
 *   <li>{@code ClientConnectionOutputStream.connection}: the upstream connection of a request whose
 *       body is being streamed. Helidon neither closes nor releases it when the body's producer
 *       fails, which would leave the upstream request open forever.</li>
 * </ul>
 * Without them: departed clients are noticed only at the next write, and a cut upload leaves its
 * upstream connection to the read timeout.
 */
public final class HelidonInternals {
    public static final Field REQUEST_CONTEXT = field("io.helidon.webserver.http1.Http1ServerRequest", "ctx");
    public static final Field NIO_CHANNEL = field("io.helidon.common.socket.NioSocket", "delegate");
    static final Field REQUEST_CONNECTION = field("io.helidon.webclient.http1.Http1CallOutputStreamChain$ClientConnectionOutputStream",
            "connection");

    private HelidonInternals() {
    }

    /** One line per internal that could not be reached (empty when all work). */
    public static List<String> problems() {
        List<String> p = new ArrayList<>();
        if (REQUEST_CONTEXT == null || NIO_CHANNEL == null) {
            p.add("warning: cannot reach Helidon's client socket (built for Helidon 4.5.0): a client that leaves while "
                    + "its request waits is noticed only at the next write");
        }
        if (REQUEST_CONNECTION == null) {
            p.add("warning: cannot reach Helidon's upstream connection (built for Helidon 4.5.0): an upload cut by its "
                    + "client stays open upstream until -upstream-timeout");
        }
        return p;
    }

    /**
     * Closes the upstream connection behind a request body stream that failed midway, so the
     * upstream sees the request end now and the connection is never reused. False when it could
     * not be reached.
     */
    static boolean abortRequest(OutputStream requestBody) {
        if (REQUEST_CONNECTION == null || !REQUEST_CONNECTION.getDeclaringClass().isInstance(requestBody)) {
            return false;
        }
        try {
            if (REQUEST_CONNECTION.get(requestBody) instanceof ClientConnection c) {
                c.closeResource();
                return true;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // fall through: not reachable
        }
        return false;
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
