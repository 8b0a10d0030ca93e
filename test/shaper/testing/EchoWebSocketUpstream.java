package shaper.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A minimal RFC 6455 upstream: completes the handshake, then answers each text frame with
 * {@code echo: <text>}. Enough to prove the proxy tunnels an upgraded connection both ways.
 */
public final class EchoWebSocketUpstream implements AutoCloseable {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private final ServerSocket server;
    private final List<RecordedRequest> handshakes = new CopyOnWriteArrayList<>();

    public EchoWebSocketUpstream() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    public List<RecordedRequest> handshakes() {
        return List.copyOf(handshakes);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            RecordedRequest req = ScriptedUpstream.RequestReader.read(in);
            handshakes.add(req);
            String accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                    .digest((req.header("Sec-WebSocket-Key") + GUID).getBytes(StandardCharsets.US_ASCII)));
            out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            DataInputStream data = new DataInputStream(in);
            while (true) {
                int b0 = data.readUnsignedByte();
                int b1 = data.readUnsignedByte();
                int opcode = b0 & 0x0f;
                long len = b1 & 0x7f;
                if (len == 126) {
                    len = data.readUnsignedShort();
                } else if (len == 127) {
                    len = data.readLong();
                }
                byte[] mask = new byte[4];
                if ((b1 & 0x80) != 0) {
                    data.readFully(mask);
                }
                byte[] payload = new byte[(int) len];
                data.readFully(payload);
                for (int i = 0; i < payload.length; i++) {
                    payload[i] ^= mask[i % 4];
                }
                if (opcode == 8) { // close: answer and stop
                    out.write(new byte[] {(byte) 0x88, 0});
                    out.flush();
                    return;
                }
                if (opcode == 1) {
                    byte[] reply = ("echo: " + new String(payload, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                    out.write(new byte[] {(byte) 0x81, (byte) reply.length});
                    out.write(reply);
                    out.flush();
                }
            }
        } catch (Exception e) {
            // connection over
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
