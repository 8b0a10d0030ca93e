package shaper.proxy.upgrade;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.observe.Header;

/** The upgrade answer's head parser, on bytes alone. */
class ResponseHeadTest {

    private static ResponseHead head(String text) {
        return ResponseHead.parse(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void statusAndFieldsAreReadAndTheBytesKeptAsReceived() {
        String text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nconnection:  Upgrade \r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
        ResponseHead h = head(text);
        assertEquals(101, h.status());
        assertTrue(h.isHttp());
        assertEquals(List.of(new Header("Upgrade", "websocket"), new Header("connection", "Upgrade"),
                new Header("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")), h.fields());
        assertEquals(List.of("Upgrade"), h.values("CONNECTION"));
        assertArrayEquals(text.getBytes(StandardCharsets.ISO_8859_1), h.bytes());
    }

    @Test
    void contentLengthIsDeclaredOrMinusOne() {
        assertEquals(14, head("HTTP/1.0 403 Forbidden\r\ncontent-length: 14\r\n\r\n").contentLength());
        assertEquals(-1, head("HTTP/1.1 403 Forbidden\r\n\r\n").contentLength());
        assertEquals(-1, head("HTTP/1.1 403 Forbidden\r\nContent-Length: lots\r\n\r\n").contentLength());
        assertEquals(-1, head("HTTP/1.1 403 Forbidden\r\nContent-Length: -5\r\n\r\n").contentLength());
    }

    @Test
    void anAnswerThatIsNotHttpHasStatusZeroAndNoFields() {
        for (String text : List.of("SSH-2.0-Op", "HTTP/2 200\r\n\r\n", "HTTP/1.1 99 Odd\r\n\r\n", "HTTP/1.1 600 Odd\r\n\r\n", "")) {
            ResponseHead h = head(text);
            assertFalse(h.isHttp(), text);
            assertEquals(0, h.status(), text);
            assertEquals(List.of(), h.fields(), text);
        }
    }

    @Test
    void nineBytesTellAnHttpStatusLineFromAnythingElse() {
        assertTrue(ResponseHead.startsLikeHttp("HTTP/1.1 ".getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(ResponseHead.startsLikeHttp("HTTP/1.0 200".getBytes(StandardCharsets.ISO_8859_1)));
        assertFalse(ResponseHead.startsLikeHttp("SSH-2.0-O".getBytes(StandardCharsets.ISO_8859_1)));
        assertFalse(ResponseHead.startsLikeHttp("HTTP/1.1".getBytes(StandardCharsets.ISO_8859_1)));
    }
}
