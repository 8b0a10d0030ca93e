package shaper.server;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * Closes connections that send their request head slower than {@code -header-read-timeout}
 * (slowloris), and keep-alive connections idle that long.
 *
 * <p>Helidon's idle-connection check already asks every connection idle past the timeout to
 * close, but it interrupts one only while it waits for a request line: a client that sent its
 * request line and trickles header bytes is never cut. This selector wraps each HTTP/1
 * connection so that such a close request interrupts it unless the proxy's handler is running
 * on it (a long stream, a queued request: those are bounded by the proxy's own rules). An
 * interrupted virtual thread blocked on its socket has that socket closed.
 */
final class HeadReadTimeout implements ServerConnectionSelector {
    private final ServerConnectionSelector delegate;
    /** Threads inside the proxy's handler right now. */
    private final Set<Thread> handling = ConcurrentHashMap.newKeySet();

    HeadReadTimeout(ServerConnectionSelector delegate) {
        this.delegate = delegate;
    }

    /** How often Helidon should look for connections past {@code timeout}: often enough to stay close to it. */
    static Duration checkPeriod(Duration timeout) {
        Duration quarter = timeout.dividedBy(4);
        return quarter.compareTo(Duration.ofSeconds(5)) > 0 ? Duration.ofSeconds(5) : quarter.isZero() ? Duration.ofMillis(1) : quarter;
    }

    /** Marks the current thread as running the handler until {@link #leave()}. */
    void enter() {
        handling.add(Thread.currentThread());
    }

    void leave() {
        handling.remove(Thread.currentThread());
    }

    @Override
    public int bytesToIdentifyConnection() {
        return delegate.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return delegate.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return delegate.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new Guarded(delegate.connection(ctx));
    }

    private final class Guarded implements ServerConnection {
        private final ServerConnection connection;
        private volatile Thread thread;

        Guarded(ServerConnection connection) {
            this.connection = connection;
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            thread = Thread.currentThread();
            connection.handle(limit);
        }

        @Override
        public Duration idleTime() {
            return connection.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            Thread t = thread;
            connection.close(interrupt || (t != null && !handling.contains(t)));
        }
    }
}
