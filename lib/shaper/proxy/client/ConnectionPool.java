package shaper.proxy.client;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * One upstream's idle keep-alive connections, newest first: the connection used last is the one
 * taken next, so under light load the same few stay warm and the rest age out. A taken connection
 * is checked with one non-blocking read ({@link UpstreamConnection#stale()}) and dropped when the
 * upstream closed it or it idled too long; nothing runs while connections idle.
 *
 * <p>Too long is {@code -upstream-idle-timeout}, or, when shorter, the connection's own limit: an
 * upstream that announced {@code Keep-Alive: timeout=N} closes it after N seconds counted from when
 * it wrote its answer, which is earlier than when the proxy read it, so the limit is N less a second
 * (see {@link KeepAliveTimeout}). A connection is given up before the upstream would close it,
 * because a request written onto a connection the upstream is closing at that moment is lost with
 * no way to know whether it was read.
 */
final class ConnectionPool implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final UpstreamAddress address;
    /** The forward proxy connections go through, and their TLS. */
    private final Dialing dialing;
    private final int capacity;
    private final long idleLimitNanos;
    private final LongSupplier nanoTime;
    private final ConcurrentLinkedDeque<UpstreamConnection> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param capacity    idle connections kept; 0 keeps none (every request on a fresh connection)
     * @param idleTimeout how long a connection may idle and still be reused
     * @param nanoTime    the provider's clock, which ages idle connections
     */
    ConnectionPool(UpstreamAddress address, Dialing dialing, int capacity, Duration idleTimeout, LongSupplier nanoTime) {
        this.address = address;
        this.dialing = dialing;
        this.capacity = capacity;
        this.idleLimitNanos = idleTimeout.toNanos();
        this.nanoTime = nanoTime;
    }

    /** A live idle connection, or a fresh one connected within 10 s or {@code timeout}, whichever is shorter. */
    UpstreamConnection take(Duration timeout) throws IOException {
        UpstreamConnection c;
        long now = nanoTime.getAsLong();
        while ((c = idle.pollFirst()) != null) {
            idleCount.decrementAndGet();
            if (now - c.idleSince() < c.idleLimit(idleLimitNanos) && !c.stale()) {
                return c;
            }
            c.close();
        }
        return fresh(timeout);
    }

    /** A new connection, never a pooled one (the retry of a request whose pooled connection had died). */
    UpstreamConnection fresh(Duration timeout) throws IOException {
        if (closed) {
            throw new IOException("upstream client closed");
        }
        return UpstreamConnection.open(address, dialing, CONNECT_TIMEOUT.compareTo(timeout) < 0 ? CONNECT_TIMEOUT : timeout);
    }

    /** Keeps a connection whose last answer was read to its end; closes it when the pool is full or closed. */
    void giveBack(UpstreamConnection c) {
        if (closed || !c.isOpen()) {
            c.close();
            return;
        }
        if (idleCount.incrementAndGet() > capacity) {
            idleCount.decrementAndGet();
            c.close();
            return;
        }
        c.parked(nanoTime.getAsLong());
        idle.offerFirst(c);
        if (closed) {
            drain();
        }
    }

    @Override
    public void close() {
        closed = true;
        drain();
    }

    private void drain() {
        UpstreamConnection c;
        while ((c = idle.pollFirst()) != null) {
            idleCount.decrementAndGet();
            c.close();
        }
    }
}
