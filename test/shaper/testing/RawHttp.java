package shaper.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A raw HTTP/1.1 client for tests that must see framing and header bytes exactly. */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;

    public RawHttp(int port) throws IOException {
        this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
    }

    public void send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    public InputStream in() throws IOException {
        return socket.getInputStream();
    }

    public Socket socket() {
        return socket;
    }

    /** A parsed response head. */
    public record Head(int status, List<RecordedRequest.Header> headers) {
        public List<String> values(String name) {
            return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(RecordedRequest.Header::value).toList();
        }

        public String header(String name) {
            List<String> v = values(name);
            return v.isEmpty() ? null : v.getFirst();
        }
    }

    public Head readHead() throws IOException {
        String status = ScriptedUpstream.RequestReader.line(in());
        if (status == null) {
            throw new IOException("connection closed before a response");
        }
        List<RecordedRequest.Header> headers = new ArrayList<>();
        String l;
        while ((l = ScriptedUpstream.RequestReader.line(in())) != null && !l.isEmpty()) {
            int colon = l.indexOf(':');
            headers.add(new RecordedRequest.Header(l.substring(0, colon), l.substring(colon + 1).trim()));
        }
        return new Head(Integer.parseInt(status.split(" ")[1]), headers);
    }

    /** Reads one chunk's payload, or null at the terminating zero chunk. */
    public String readChunk() throws IOException {
        String size = ScriptedUpstream.RequestReader.line(in());
        if (size == null) {
            throw new IOException("eof before chunk");
        }
        int n = Integer.parseInt(size.trim(), 16);
        if (n == 0) {
            ScriptedUpstream.RequestReader.line(in());
            return null;
        }
        byte[] b = in().readNBytes(n);
        ScriptedUpstream.RequestReader.line(in());
        return new String(b, StandardCharsets.UTF_8);
    }

    public String readBytes(int n) throws IOException {
        return new String(in().readNBytes(n), StandardCharsets.UTF_8);
    }

    /** Everything until the peer closes. */
    public String readToEnd() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        in().transferTo(b);
        return b.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
