package shaper.proxy.upgrade;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;

import javax.net.ssl.SSLSocket;

import shaper.proxy.client.UpstreamTls;

/**
 * The upstream end of one upgrade: a plain or TLS (host name verified) socket with TCP_NODELAY, which
 * sends the handshake and reads the answer's head. The pooled upstream clients of plain requests
 * cannot hand over their connection for a splice, hence this socket of its own.
 *
 * <p>Timeouts: connecting is bounded by 10 s or the call's timeout, whichever is shorter; every read
 * until the head is complete is bounded by the call's deadline ({@link System#nanoTime()}); a spliced
 * tunnel drops the bound ({@link #untimed()}). Closing is idempotent and quiet. One thread writes and
 * one reads at a time.
 */
final class UpstreamSocket implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_RESPONSE_HEAD = 64 * 1024;
    private final Socket socket;

    private UpstreamSocket(Socket socket) {
        this.socket = socket;
    }

    /** Connects to {@code upstream} ({@code http} or {@code https}, default ports 80 and 443, TLS set up by {@code setup}). */
    static UpstreamSocket connect(URI upstream, UpstreamTls setup, Duration timeout) throws IOException {
        boolean tls = upstream.getScheme().equalsIgnoreCase("https");
        int port = upstream.getPort() >= 0 ? upstream.getPort() : (tls ? 443 : 80);
        Socket plain = new Socket();
        try {
            plain.setTcpNoDelay(true);
            plain.connect(new InetSocketAddress(upstream.getHost(), port), (int) Math.min(CONNECT_TIMEOUT.toMillis(), timeout.toMillis()));
            plain.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
            if (!tls) {
                return new UpstreamSocket(plain);
            }
            SSLSocket ssl = setup.over(plain, upstream.getHost(), port);
            return new UpstreamSocket(ssl);
        } catch (IOException | RuntimeException e) {
            closeQuietly(plain);
            throw e;
        }
    }

    /** Writes the handshake request head. */
    void send(byte[] requestHead) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(requestHead);
        out.flush();
    }

    /**
     * Reads the answer's status line and headers up to the blank line (64 KiB at most), or only its
     * first bytes when they are not HTTP, so that nothing more of a foreign protocol is read.
     */
    byte[] readHead(long deadline) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[MAX_RESPONSE_HEAD];
        int n = 0;
        while (n < buf.length) {
            boundReads(deadline);
            int b = in.read();
            if (b < 0) {
                throw new IOException("upstream closed during the upgrade handshake");
            }
            buf[n++] = (byte) b;
            if (n == ResponseHead.PREFIX && !ResponseHead.startsLikeHttp(buf)) {
                return Arrays.copyOf(buf, n);
            }
            if (n >= 4 && buf[n - 4] == '\r' && buf[n - 3] == '\n' && buf[n - 2] == '\r' && buf[n - 1] == '\n') {
                return Arrays.copyOf(buf, n);
            }
        }
        throw new IOException("upstream upgrade response head exceeds " + MAX_RESPONSE_HEAD + " bytes");
    }

    /** Bounds the next read by what is left before {@code deadline}; a passed deadline throws. */
    void boundReads(long deadline) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("upgrade exceeded -upstream-timeout");
        }
        // at least 1 ms: a timeout of 0 would mean none
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
    }

    /** Lifts the read bound: an upgraded connection may idle as long as its peers like. */
    void untimed() throws IOException {
        socket.setSoTimeout(0);
    }

    InputStream in() throws IOException {
        return socket.getInputStream();
    }

    OutputStream out() throws IOException {
        return socket.getOutputStream();
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
    }
}
