package shaper.proxy.client;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;

import javax.net.ssl.SSLSocket;

/**
 * One connection to an upstream, plain or TLS (host name verified, ALPN {@code http/1.1}), with
 * TCP_NODELAY. It lives on a {@link SocketChannel} so that a pooled connection can be checked with
 * one non-blocking read ({@link #stale()}); its streams are the channel's blocking socket streams,
 * so a virtual thread parks while it waits and an interrupt closes it. Used by one thread at a time;
 * {@link #close()} may come from any thread and is idempotent.
 */
final class UpstreamConnection implements AutoCloseable {
    private final SocketChannel channel;
    private final Socket socket;
    private final WireInput in;
    private final OutputStream out;
    /** The one byte a staleness check may read (never needed: such a connection is dropped). */
    private final ByteBuffer probe = ByteBuffer.allocate(1);
    private long idleSince;
    /** The upstream asked for a client certificate in the handshake and got none. */
    private boolean certificateWanted;
    private boolean reused;
    /** The upstream's announced {@code Keep-Alive: timeout}, in nanoseconds; {@link Long#MAX_VALUE} when it announced none. */
    private long announcedIdle = Long.MAX_VALUE;

    private UpstreamConnection(SocketChannel channel, Socket socket) throws IOException {
        this.channel = channel;
        this.socket = socket;
        this.in = new WireInput(socket.getInputStream());
        // The JDK's growable buffer (512 bytes, up to 8 KiB as writes need): a connection held by a
        // long event stream sent one small head and keeps only what that took, where a fixed 16 KiB
        // buffer was a quarter of the proxy's heap per stream; a larger body write bypasses it anyway.
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /**
     * Connects, within {@code connectTimeout}, through {@code egress} when it is not null (its tunnel
     * set up within the same bound), and for {@code https} completes the TLS handshake with the upstream
     * with {@code dialing}'s trust and client key.
     */
    static UpstreamConnection open(UpstreamAddress address, Dialing dialing, Duration connectTimeout) throws IOException {
        EgressProxy egress = dialing.egress();
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Socket plain = channel.socket();
            int bound = (int) Math.max(1, Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
            if (egress == null) {
                plain.connect(new InetSocketAddress(address.host(), address.port()), bound);
            } else {
                try {
                    plain.connect(new InetSocketAddress(egress.host(), egress.port()), bound);
                } catch (IOException e) {
                    throw new java.net.ConnectException("cannot reach egress proxy " + egress.display() + ": " + e.getMessage());
                }
                plain.setSoTimeout(bound);
                egress.tunnel(plain, address);
            }
            if (!address.tls()) {
                return new UpstreamConnection(channel, plain);
            }
            SSLSocket ssl = dialing.tls().over(plain, address.host(), address.port());
            UpstreamConnection c = new UpstreamConnection(channel, ssl);
            c.certificateWanted = dialing.tls().certificateWanted(ssl);
            return c;
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    WireInput in() {
        return in;
    }

    OutputStream out() {
        return out;
    }

    /** Bounds every read from now on ({@code SO_TIMEOUT}); zero or less means at least a millisecond. */
    void readTimeout(Duration timeout) throws IOException {
        long ms;
        try {
            ms = timeout.toMillis();
        } catch (ArithmeticException e) {
            ms = Integer.MAX_VALUE;
        }
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, ms)));
    }

    /**
     * {@code e} as the caller should see it: on a fresh connection whose upstream asked for a client
     * certificate it did not get, a TLS error saying so (the upstream's refusal reaches this side
     * only as a broken pipe or a close); otherwise {@code e} itself.
     */
    IOException explain(IOException e) {
        if (!certificateWanted || reused) {
            return e;
        }
        return new javax.net.ssl.SSLException("the upstream asked for a client certificate and none is configured"
                + " (give -upstream-client-cert and -upstream-client-key); then: " + e.getMessage());
    }

    /** True when this connection came from the pool rather than a fresh connect. */
    boolean reused() {
        return reused;
    }

    void parked(long nanoTime) {
        idleSince = nanoTime;
        reused = true;
    }

    long idleSince() {
        return idleSince;
    }

    /** What the last answer's {@code Keep-Alive: timeout} said (null: nothing, which keeps what an earlier one said). */
    void keepAliveTimeout(java.time.Duration announced) {
        if (announced != null) {
            announcedIdle = announced.toNanos();
        }
    }

    /** How long this connection may idle and still be reused: the pool's limit, cut short by what the upstream announced. */
    long idleLimit(long poolLimitNanos) {
        return Math.min(poolLimitNanos, announcedIdle);
    }

    /**
     * True when an idle connection can no longer carry a request: closed, at end of stream, reset,
     * or with bytes nobody asked for. One non-blocking read; a byte it takes is never needed, since
     * such a connection is dropped.
     */
    boolean stale() {
        if (!channel.isOpen() || in.buffered() > 0) {
            return true;
        }
        try {
            channel.configureBlocking(false);
            try {
                return channel.read(probe.clear()) != 0;
            } finally {
                channel.configureBlocking(true);
            }
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() {
        closeQuietly(socket);
        closeQuietly(channel);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is best effort
        }
    }
}
