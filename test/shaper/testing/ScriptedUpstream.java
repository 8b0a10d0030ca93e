package shaper.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw-socket HTTP/1.1 upstream for tests: it records each request byte-faithfully (header case,
 * order, framing) and lets the test script the response, including partial bodies, resets and
 * slow streams. Keep-alive connections are served until the peer closes. Loopback only.
 */
public final class ScriptedUpstream implements AutoCloseable {
    /** Writes the response for one request. */
    @FunctionalInterface
    public interface Responder {
        void respond(RecordedRequest request, Exchange exchange) throws IOException, InterruptedException;
    }

    /** The response side of one request on the upstream socket. */
    public static final class Exchange {
        private final Socket socket;
        private final OutputStream out;
        private final Runnable finished;
        private boolean counted = true;
        boolean closeAfter;

        Exchange(Socket socket, OutputStream out, Runnable finished) {
            this.socket = socket;
            this.out = out;
            this.finished = finished;
        }

        /**
         * Leaves the in-flight count before the bytes that complete the response are written: the
         * proxy can only have the whole response (and free its slot) after this, so a request it
         * sends next is never counted together with this one by a scheduling delay of ours.
         */
        void finish() {
            if (counted) {
                counted = false;
                finished.run();
            }
        }

        public void write(String text) throws IOException {
            write(text.getBytes(StandardCharsets.UTF_8));
        }

        public void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /** Sends a complete response with Content-Length. */
        public void respond(int status, String body, String... headerLines) throws IOException {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            StringBuilder sb = new StringBuilder("HTTP/1.1 " + status + " " + reason(status) + "\r\n");
            for (String h : headerLines) {
                sb.append(h).append("\r\n");
            }
            sb.append("Content-Length: ").append(b.length).append("\r\n\r\n");
            finish();
            write(sb.toString());
            write(b);
        }

        /** Sends a status line and headers, nothing else. */
        public void head(int status, String... headerLines) throws IOException {
            StringBuilder sb = new StringBuilder("HTTP/1.1 " + status + " " + reason(status) + "\r\n");
            for (String h : headerLines) {
                sb.append(h).append("\r\n");
            }
            write(sb.append("\r\n").toString());
        }

        /** Writes one chunk of a chunked body. */
        public void chunk(String text) throws IOException {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            write((Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            write(b);
            write("\r\n");
        }

        public void endChunks() throws IOException {
            finish();
            write("0\r\n\r\n");
        }

        /** Closes the connection after this response (no keep-alive). */
        public void closeAfterResponse() {
            closeAfter = true;
        }

        /** Aborts the connection with a TCP reset. */
        public void reset() throws IOException {
            socket.setSoLinger(true, 0);
            socket.close();
        }

        public Socket socket() {
            return socket;
        }
    }

    private final ServerSocket server;
    private final Responder responder;
    private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicInteger failedWrites = new AtomicInteger();
    private volatile boolean open = true;

    private ScriptedUpstream(Responder responder) throws IOException {
        this.responder = responder;
        this.server = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("scripted-upstream-accept").start(this::acceptLoop);
    }

    public static ScriptedUpstream start(Responder responder) {
        try {
            return new ScriptedUpstream(responder);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An upstream that answers every request with 200 and the given body. */
    public static ScriptedUpstream ok(String body) {
        return start((req, ex) -> ex.respond(200, body, "Content-Type: text/plain"));
    }

    public int port() {
        return server.getLocalPort();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + port());
    }

    public String url() {
        return uri().toString();
    }

    public List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    public RecordedRequest onlyRequest() {
        if (requests.size() != 1) {
            throw new AssertionError("expected exactly one upstream request, got " + requests.size());
        }
        return requests.getFirst();
    }

    public int connections() {
        return connections.get();
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int peakInFlight() {
        return peakInFlight.get();
    }

    /** Responses whose writing failed because the proxy closed the connection. */
    public int failedWrites() {
        return failedWrites.get();
    }

    private void acceptLoop() {
        while (open) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                connections.incrementAndGet();
                sockets.add(s);
                Thread.ofVirtual().name("scripted-upstream-conn").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (open) {
                RecordedRequest req = RequestReader.read(in);
                if (req == null) {
                    return;
                }
                requests.add(req);
                int now = inFlight.incrementAndGet();
                peakInFlight.accumulateAndGet(now, Math::max);
                Exchange ex = new Exchange(s, out, inFlight::decrementAndGet);
                try {
                    responder.respond(req, ex);
                } catch (IOException e) {
                    failedWrites.incrementAndGet();
                    return;
                } finally {
                    ex.finish();
                }
                if (ex.closeAfter || s.isClosed()) {
                    return;
                }
            }
        } catch (IOException | InterruptedException e) {
            // connection ended
        }
    }

    @Override
    public void close() {
        open = false;
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

    static String reason(int status) {
        return switch (status) {
            case 101 -> "Switching Protocols";
            case 200 -> "OK";
            case 201 -> "Created";
            case 204 -> "No Content";
            case 302 -> "Found";
            case 304 -> "Not Modified";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 422 -> "Unprocessable Entity";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "Status";
        };
    }

    /** Parses one HTTP/1.1 request (head, then a Content-Length or chunked body). */
    static final class RequestReader {
        private RequestReader() {
        }

        static RecordedRequest read(InputStream in) throws IOException {
            String requestLine = line(in);
            if (requestLine == null) {
                return null;
            }
            while (requestLine.isEmpty()) {
                requestLine = line(in);
                if (requestLine == null) {
                    return null;
                }
            }
            String[] parts = requestLine.split(" ", 3);
            List<RecordedRequest.Header> headers = new ArrayList<>();
            String l;
            while ((l = line(in)) != null && !l.isEmpty()) {
                int colon = l.indexOf(':');
                headers.add(new RecordedRequest.Header(l.substring(0, colon), l.substring(colon + 1).trim()));
            }
            boolean chunked = headers.stream().anyMatch(h -> h.name().equalsIgnoreCase("transfer-encoding")
                    && h.value().toLowerCase().contains("chunked"));
            String cl = headers.stream().filter(h -> h.name().equalsIgnoreCase("content-length"))
                    .map(RecordedRequest.Header::value).findFirst().orElse(null);
            byte[] body;
            if (chunked) {
                body = readChunked(in);
            } else if (cl != null) {
                body = in.readNBytes(Integer.parseInt(cl));
            } else {
                body = new byte[0];
            }
            return new RecordedRequest(parts[0], parts[1], List.copyOf(headers), chunked, body);
        }

        private static byte[] readChunked(InputStream in) throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String size = line(in);
                if (size == null) {
                    throw new IOException("eof in chunked body");
                }
                int semi = size.indexOf(';');
                int n = Integer.parseInt((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
                if (n == 0) {
                    String trailer;
                    while ((trailer = line(in)) != null && !trailer.isEmpty()) {
                        // trailers are ignored
                    }
                    return body.toByteArray();
                }
                body.write(in.readNBytes(n));
                line(in);
            }
        }

        static String line(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0) {
                if (c == '\n') {
                    byte[] bytes = b.toByteArray();
                    int len = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                    return new String(bytes, 0, len, StandardCharsets.ISO_8859_1);
                }
                b.write(c);
            }
            return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
