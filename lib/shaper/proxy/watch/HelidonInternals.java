package shaper.proxy.watch;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Every reach into Helidon 4.5.0 internals, in one place, so an upgrade that breaks one is
 * announced at startup ({@link #problems()}) instead of silently degrading, and a test can
 * insist that the list is empty.
 *
 * <ul>
 *   <li>{@code Http1ServerRequest.ctx}: the connection context of a request, for its socket.</li>
 *   <li>{@code NioSocket.delegate}: the NIO channel of that socket, for the end-of-stream watch.</li>
 * </ul>
 * Without them, departed clients are noticed only at the next write.
 */
public final class HelidonInternals {
    public static final Field REQUEST_CONTEXT = field("io.helidon.webserver.http1.Http1ServerRequest", "ctx");
    public static final Field NIO_CHANNEL = field("io.helidon.common.socket.NioSocket", "delegate");

    private HelidonInternals() {
    }

    /** One line per internal that could not be reached (empty when all work). */
    public static List<String> problems() {
        List<String> p = new ArrayList<>();
        if (REQUEST_CONTEXT == null || NIO_CHANNEL == null) {
            p.add("warning: cannot reach Helidon's client socket (built for Helidon 4.5.0): a client that leaves while "
                    + "its request waits is noticed only at the next write");
        }
        return p;
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
