package shaper.proxy.client;

import java.io.IOException;
import java.util.List;

import io.helidon.http.ClientResponseHeaders;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.http.WritableHeaders;

/**
 * The status line and header fields of an upstream answer, read from the wire. Field names keep
 * their case (known names take Helidon's canonical constant, as its own parser does); values lose
 * surrounding whitespace; repeated fields stay separate values in arrival order. A line without a
 * colon is skipped. The whole head is bounded by {@link #MAX_HEAD} bytes. Its {@code Content-Length}, when
 * kept, is one valid number (see {@code checkLength}).
 */
record ResponseHead(Status status, boolean http10, ClientResponseHeaders headers) {
    static final int MAX_HEAD = 64 * 1024;
    private static final int MAX_STATUS_LINE = 8 * 1024;

    static ResponseHead read(WireInput in) throws IOException {
        String statusLine = in.line(MAX_STATUS_LINE);
        if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.") || statusLine.charAt(8) != ' '
                || !digits(statusLine, 9, 12) || (statusLine.length() > 12 && statusLine.charAt(12) != ' ')) {
            throw new IOException("upstream sent no HTTP/1.x status line: " + printable(statusLine));
        }
        int code = Integer.parseInt(statusLine, 9, 12, 10);
        String reason = statusLine.length() > 13 ? statusLine.substring(13) : "";
        WritableHeaders<?> fields = WritableHeaders.create();
        int size = statusLine.length();
        while (true) {
            String line = in.line(MAX_HEAD);
            size += line.length() + 2;
            if (size > MAX_HEAD) {
                throw new IOException("upstream response head exceeds " + MAX_HEAD + " bytes");
            }
            if (line.isEmpty()) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            fields.add(HeaderValues.create(HeaderNames.create(line.substring(0, colon).strip()), line.substring(colon + 1).strip()));
        }
        checkLength(fields);
        Status status = reason.isEmpty() ? Status.create(code) : Status.create(code, reason);
        return new ResponseHead(status, statusLine.charAt(7) == '0', ClientResponseHeaders.create(fields));
    }

    /**
     * RFC 9112 section 6.3: a {@code Transfer-Encoding} overrides {@code Content-Length}, which is
     * dropped here so that no reader (the relay above all) trusts or forwards it; without one, every
     * {@code Content-Length} value must be the same decimal number (repeats become one), else the
     * answer has no framing to trust and the upstream call fails.
     */
    private static void checkLength(WritableHeaders<?> fields) throws IOException {
        if (!fields.contains(HeaderNames.CONTENT_LENGTH)) {
            return;
        }
        if (fields.contains(HeaderNames.TRANSFER_ENCODING)) {
            fields.remove(HeaderNames.CONTENT_LENGTH);
            return;
        }
        long length = -1;
        List<String> values = fields.get(HeaderNames.CONTENT_LENGTH).allValues();
        for (String value : values) {
            for (String part : value.split(",", -1)) {
                String n = part.strip();
                long parsed = n.isEmpty() || n.length() > 18 || !digits(n, 0, n.length()) ? -1 : Long.parseLong(n);
                if (parsed < 0 || (length >= 0 && parsed != length)) {
                    throw new IOException("upstream sent an invalid Content-Length: " + printable(value));
                }
                length = parsed;
            }
        }
        if (values.size() > 1 || values.getFirst().indexOf(',') >= 0) {
            fields.set(HeaderNames.CONTENT_LENGTH, length); // repeats of one length become one; a single value stays as sent
        }
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String printable(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) : s;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
