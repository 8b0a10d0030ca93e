package shaper.proxy.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The buffered read side of one upstream connection: the answer's head is read in large pieces and
 * what follows it stays buffered for the body. Used by one thread at a time.
 */
final class WireInput {
    private static final int BUFFER = 16 * 1024;

    private final InputStream in;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int limit;
    private long consumed;

    WireInput(InputStream in) {
        this.in = in;
    }

    /** Bytes received on this connection so far (a counter: compare two readings). */
    long consumed() {
        return consumed + pos;
    }

    /** Bytes buffered now (no read). */
    int buffered() {
        return limit - pos;
    }

    /** True when something was buffered or the socket says bytes are pending. */
    int available() throws IOException {
        return buffered() > 0 ? buffered() : in.available();
    }

    /** Reads up to {@code len} bytes; -1 at end of stream. Large reads with nothing buffered go straight to the caller's array. */
    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos < limit) {
            int n = Math.min(len, limit - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }
        if (len >= buf.length) {
            int n = in.read(b, off, len);
            if (n > 0) {
                consumed += n;
            }
            return n;
        }
        if (!fill()) {
            return -1;
        }
        return read(b, off, len);
    }

    /** One byte, or -1 at end of stream. */
    int read() throws IOException {
        if (pos >= limit && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    /**
     * One line without its CRLF (a bare LF is accepted), as ISO-8859-1 text.
     *
     * @throws EOFException at end of stream before the line ended
     * @throws IOException  when the line is longer than {@code max}
     */
    String line(int max) throws IOException {
        StringBuilder sb = null;
        while (true) {
            if (pos >= limit && !fill()) {
                throw new EOFException("upstream closed the connection mid-line");
            }
            int start = pos;
            while (pos < limit && buf[pos] != '\n') {
                pos++;
            }
            boolean ended = pos < limit;
            int end = pos;
            if (ended) {
                pos++; // the LF
            }
            int length = (sb == null ? 0 : sb.length()) + (end - start);
            if (length > max) {
                throw new IOException("upstream line longer than " + max + " bytes");
            }
            if (ended) {
                if (end > start && buf[end - 1] == '\r') {
                    end--;
                } else if (end == start && sb != null && !sb.isEmpty() && sb.charAt(sb.length() - 1) == '\r') {
                    sb.setLength(sb.length() - 1);
                }
                String tail = new String(buf, start, end - start, StandardCharsets.ISO_8859_1);
                return sb == null ? tail : sb.append(tail).toString();
            }
            if (sb == null) {
                sb = new StringBuilder();
            }
            sb.append(new String(buf, start, end - start, StandardCharsets.ISO_8859_1));
        }
    }

    /**
     * A chunk-size line read byte by byte (no text made per chunk), held to RFC 9112 section 7.1:
     * hex digits, then optional whitespace, then either the line's end or {@code ;} and extensions
     * (read and ignored), then CRLF or a bare LF. Anything else ({@code 1 0}, {@code 1\r0}, a
     * control character in an extension) is refused, not read as some other size.
     *
     * @throws IOException when it is not one, longer than {@code max}, or over 15 hex digits
     */
    long chunkSize(int max) throws IOException {
        long size = 0;
        int digits = 0;
        int part = 0; // 0: the digits, 1: whitespace after them, 2: extensions
        for (int count = 1; ; count++) {
            int b = read();
            if (b < 0) {
                throw new EOFException("upstream closed the connection mid-line");
            }
            if (count > max) {
                throw new MalformedAnswer("upstream chunk-size line longer than " + max + " bytes");
            }
            if (b == '\n') {
                break;
            }
            if (b == '\r') {
                if (read() != '\n') {
                    throw new MalformedAnswer("upstream sent a bare CR in a chunk-size line");
                }
                break;
            }
            int d = part == 0 ? Character.digit(b, 16) : -1;
            if (d >= 0) {
                if (++digits > 15) {
                    throw new MalformedAnswer("upstream sent a chunk size over 15 hex digits");
                }
                size = size * 16 + d;
            } else if (part < 2 && digits > 0 && (b == ' ' || b == '\t')) {
                part = 1;
            } else if (part < 2 && digits > 0 && b == ';') {
                part = 2;
            } else if (part != 2 || (b < 0x20 && b != '\t') || b == 0x7f) {
                throw new MalformedAnswer("upstream sent a bad chunk size");
            }
        }
        if (digits == 0) {
            throw new MalformedAnswer("upstream sent a bad chunk size");
        }
        return size;
    }

    /** The CRLF (or a bare LF) that ends a chunk's data. */
    void crlf() throws IOException {
        int b = read();
        if (b == '\r') {
            b = read();
        }
        if (b != '\n') {
            if (b < 0) {
                throw new EOFException("upstream closed the connection mid-chunk");
            }
            throw new MalformedAnswer("upstream chunk not followed by CRLF");
        }
    }

    /** Refills an empty buffer; false at end of stream. */
    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n < 0) {
            return false;
        }
        consumed += limit;
        pos = 0;
        limit = n;
        return true;
    }
}
