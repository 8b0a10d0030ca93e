package shaper.proxy.ws;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** RFC 6455 section 4.2.2: the {@code Sec-WebSocket-Accept} that proves the server read the client's key. Pure. */
final class SocketAccept {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private SocketAccept() {
    }

    static String of(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
