package shaper.proxy.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.helidon.http.ClientResponseHeaders;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.http.WritableHeaders;


/**
 * The status line and header fields of an upstream answer, read from the wire and held to
 * {@link WireSyntax}: {@code HTTP/1.0} or {@code HTTP/1.1}, a three-digit status in 100-599, field
 * names that are tokens, values without control characters, no folded or whitespace-led lines.
 * The reason phrase is read and dropped: the status carries the standard one, so nothing an
 * upstream writes there reaches a client. Field names keep their case (known names take Helidon's
 * canonical constant, as its own parser does); values lose surrounding whitespace; repeated fields
 * stay separate values in arrival order, collected in one pass (a name's values are gathered
 * before Helidon sees them, since adding to a name it already holds copies its list each time).
 * The whole head is bounded by {@link #MAX_HEAD} bytes and {@link #MAX_FIELDS} field lines. Its
 * {@code Content-Length}, when kept, is one valid number (see {@code checkLength}).
 *
 * @param ambiguous the head framed itself twice (both {@code Content-Length} and {@code Transfer-Encoding}):
 *                  read by the transfer coding, and the connection is not used again
 */
record ResponseHead(Status status, boolean http10, boolean ambiguous, ClientResponseHeaders headers) {
    static final int MAX_HEAD = 64 * 1024;
    /**
     * Field lines one head may carry. The APIs this proxy fronts send 10 to 40 (rate-limit families,
     * a CDN's own, a few cookies); 256 leaves room for a chatty gateway and refuses a head built to
     * make every later step pay per field.
     */
    static final int MAX_FIELDS = 256;
    private static final int MAX_STATUS_LINE = 8 * 1024;

    static ResponseHead read(WireInput in) throws IOException {
        String statusLine = in.line(MAX_STATUS_LINE);
        if (statusLine.length() < 12 || !(statusLine.startsWith("HTTP/1.1") || statusLine.startsWith("HTTP/1.0"))
                || statusLine.charAt(8) != ' ' || !digits(statusLine, 9, 12) || (statusLine.length() > 12 && statusLine.charAt(12) != ' ')) {
            throw new MalformedAnswer("upstream sent no HTTP/1.x status line", WireSyntax.printable(statusLine));
        }
        int code = Integer.parseInt(statusLine, 9, 12, 10);
        if (code < 100 || code > 599) {
            throw new MalformedAnswer("upstream sent status " + statusLine.substring(9, 12) + ", outside 100-599");
        }
        WireSyntax.fieldChars(statusLine, 12, statusLine.length(), "the reason phrase");
        boolean http10 = statusLine.charAt(7) == '0';
        WritableHeaders<?> fields = fields(in, statusLine.length() + 2, MAX_FIELDS);
        checkTransferCoding(fields, http10);
        boolean ambiguous = checkLength(fields);
        return new ResponseHead(Status.create(code), http10, ambiguous, ClientResponseHeaders.create(fields));
    }

    /**
     * Field lines up to the empty line that ends them, validated, each name's values in arrival
     * order: the head's fields, or a chunked body's trailer section.
     *
     * @param used bytes of the head already read (its start line), counted against {@link #MAX_HEAD}
     */
    static WritableHeaders<?> fields(WireInput in, int used, int maxFields) throws IOException {
        Map<String, Field> byName = new LinkedHashMap<>();
        int size = used;
        int count = 0;
        while (true) {
            String line = in.line(MAX_HEAD);
            size += line.length() + 2;
            if (size > MAX_HEAD) {
                throw new MalformedAnswer("upstream response head exceeds " + MAX_HEAD + " bytes");
            }
            if (line.isEmpty()) {
                break;
            }
            if (++count > maxFields) {
                throw new MalformedAnswer("upstream sent more than " + maxFields + " field lines");
            }
            // names differing only in case are one field: the first spelling names it
            WireSyntax.fieldLine(line, (name, value) -> byName.computeIfAbsent(name.toLowerCase(Locale.ROOT),
                    k -> new Field(HeaderNames.create(name), new ArrayList<>(1))).values().add(value));
        }
        WritableHeaders<?> fields = WritableHeaders.create();
        for (Field f : byName.values()) {
            fields.add(HeaderValues.create(f.name(), f.values()));
        }
        return fields;
    }

    private record Field(HeaderName name, List<String> values) {
    }

    /**
     * RFC 9112 section 6.1: the one transfer coding this proxy reads is {@code chunked}, and it must
     * be the last (and here the only) one; any other list cannot be framed or passed on faithfully,
     * since the relay sends bodies decoded from their transfer coding. HTTP/1.0 has no transfer
     * codings, so one there means the framing is faulty.
     */
    private static void checkTransferCoding(WritableHeaders<?> fields, boolean http10) throws MalformedAnswer {
        if (!fields.contains(HeaderNames.TRANSFER_ENCODING)) {
            return;
        }
        List<String> values = fields.get(HeaderNames.TRANSFER_ENCODING).allValues();
        if (http10 || values.size() != 1 || !values.getFirst().equalsIgnoreCase("chunked")) {
            throw new MalformedAnswer(http10 ? "upstream sent a Transfer-Encoding in HTTP/1.0"
                    : "upstream sent a Transfer-Encoding other than one chunked", WireSyntax.printable(String.join(", ", values)));
        }
    }

    /**
     * RFC 9112 section 6.3: a {@code Transfer-Encoding} overrides {@code Content-Length}, which is
     * dropped here so that no reader (the relay above all) trusts or forwards it, and the answer
     * is marked ambiguous: its connection closes after it (the two fields together are how request
     * smuggling and response splitting begin). Without one, every {@code Content-Length} value
     * must be the same decimal number (repeats become one), else the answer has no framing to
     * trust and the upstream call fails.
     *
     * @return true when both fields were present
     */
    private static boolean checkLength(WritableHeaders<?> fields) throws IOException {
        if (!fields.contains(HeaderNames.CONTENT_LENGTH)) {
            return false;
        }
        if (fields.contains(HeaderNames.TRANSFER_ENCODING)) {
            fields.remove(HeaderNames.CONTENT_LENGTH);
            return true;
        }
        long length = -1;
        List<String> values = fields.get(HeaderNames.CONTENT_LENGTH).allValues();
        for (String value : values) {
            for (String part : value.split(",", -1)) {
                String n = part.strip();
                long parsed = n.isEmpty() || n.length() > 18 || !digits(n, 0, n.length()) ? -1 : Long.parseLong(n);
                if (parsed < 0 || (length >= 0 && parsed != length)) {
                    throw new MalformedAnswer("upstream sent an invalid Content-Length", WireSyntax.printable(value));
                }
                length = parsed;
            }
        }
        if (values.size() > 1 || values.getFirst().indexOf(',') >= 0) {
            fields.set(HeaderNames.CONTENT_LENGTH, length); // repeats of one length become one; a single value stays as sent
        }
        return false;
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
