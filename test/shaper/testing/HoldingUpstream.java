package shaper.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream that never answers: it reads each request head and then whatever follows until the
 * proxy closes the connection. It counts requests open at the socket (head received, connection
 * not yet closed by the proxy), their peak, and how long each stayed open after its head. Tests
 * use it to see, at the upstream socket, whether the proxy ends calls it has given up on.
 */
public final class HoldingUpstream implements AutoCloseable {
    private final ServerSocket server;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicInteger heads = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean running = true;

    private HoldingUpstream() throws IOException {
        server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("holding-upstream-accept").start(this::accept);
    }

    public static HoldingUpstream start() {
        try {
            return new HoldingUpstream();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Requests whose head arrived and whose connection the proxy has not closed. */
    public int open() {
        return open.get();
    }

    public int peakOpen() {
        return peak.get();
    }

    /** Request heads received so far. */
    public int heads() {
        return heads.get();
    }

    /** Connections with a request that the proxy closed. */
    public int closedByProxy() {
        return closed.get();
    }

    private void accept() {
        while (running) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                Thread.ofVirtual().name("holding-upstream-conn").start(() -> hold(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void hold(Socket s) {
        boolean counted = false;
        try (s) {
            InputStream in = s.getInputStream();
            String line;
            while ((line = ScriptedUpstream.RequestReader.line(in)) != null && !line.isEmpty()) {
                // the head, line by line
            }
            if (line == null) {
                return;
            }
            counted = true;
            heads.incrementAndGet();
            peak.accumulateAndGet(open.incrementAndGet(), Math::max);
            byte[] buf = new byte[16 * 1024];
            while (in.read(buf) >= 0) {
                // the body, discarded; the request stays unanswered
            }
        } catch (IOException e) {
            // reset by the proxy: closed all the same
        } finally {
            if (counted) {
                open.decrementAndGet();
                if (running) {
                    closed.incrementAndGet();
                }
            }
        }
    }

    /** A request head with a declared body length, as raw text. */
    public static String postHead(String path, long contentLength) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + contentLength + "\r\n\r\n";
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        running = false;
        try {
            server.close();
        } catch (IOException ignored) {
            // best effort
        }
        synchronized (sockets) {
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }
}
