package shaper.proxy.upgrade;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import shaper.observe.Header;
import shaper.retry.HeaderLookup;

/**
 * The status line and header fields of an upstream's HTTP/1.1 answer to an upgrade handshake, parsed
 * from the raw bytes that are relayed to the client unchanged. Pure: no socket, no clock. A head
 * whose status line is not {@code HTTP/1.0} or {@code HTTP/1.1} with a three-digit status has
 * {@link #status()} {@code 0} ({@link #isHttp()} false) and no fields. Header names are matched
 * case-insensitively; values are trimmed; lines without a colon are skipped. Immutable.
 */
final class ResponseHead implements HeaderLookup {
    /** Bytes of {@code HTTP/1.x }: enough to tell an HTTP answer from anything else. */
    static final int PREFIX = 9;
    private static final Pattern VERSION = Pattern.compile("HTTP/1\\.[01] ");
    private static final Pattern STATUS_LINE = Pattern.compile("(?s)HTTP/1\\.[01] [1-5][0-9][0-9][ \r].*");

    private final byte[] bytes;
    private final int status;
    private final List<Header> fields;

    private ResponseHead(byte[] bytes, int status, List<Header> fields) {
        this.bytes = bytes;
        this.status = status;
        this.fields = fields;
    }

    /** Parses a head as read from the upstream (up to and including its blank line, or a non-HTTP prefix). */
    static ResponseHead parse(byte[] bytes) {
        byte[] copy = bytes.clone();
        String text = new String(copy, StandardCharsets.ISO_8859_1);
        String start = text.substring(0, Math.min(text.length(), 64));
        if (!STATUS_LINE.matcher(start).matches()) {
            return new ResponseHead(copy, 0, List.of());
        }
        List<Header> fields = new ArrayList<>();
        String[] lines = text.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                fields.add(new Header(lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()));
            }
        }
        return new ResponseHead(copy, Integer.parseInt(text.substring(9, 12)), List.copyOf(fields));
    }

    /** True when the first {@link #PREFIX} bytes of {@code prefix} can begin an HTTP/1.x status line. */
    static boolean startsLikeHttp(byte[] prefix) {
        return prefix.length >= PREFIX && VERSION.matcher(new String(prefix, 0, PREFIX, StandardCharsets.ISO_8859_1)).matches();
    }

    /** The status code, or 0 when the answer is not HTTP. */
    int status() {
        return status;
    }

    boolean isHttp() {
        return status != 0;
    }

    /** The head exactly as received, for relaying to the client. */
    byte[] bytes() {
        return bytes.clone();
    }

    /** The header fields in arrival order, names as received (the journal's copy). */
    List<Header> fields() {
        return fields;
    }

    @Override
    public List<String> values(String name) {
        return fields.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).toList();
    }

    /** The declared {@code Content-Length}, or -1 when absent or not a number. */
    long contentLength() {
        try {
            return first("Content-Length").map(Long::parseLong).filter(n -> n >= 0).orElse(-1L);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
