package shaper.proxy.client;

import java.io.IOException;

/**
 * The byte-level grammar an upstream answer must follow before anything of it is believed or
 * relayed, in one place (RFC 9110 section 5.5, RFC 9112 sections 2 to 7). Every check here ends
 * in {@link MalformedAnswer}: the proxy answers 502, closes the connection and counts an upstream
 * failure, because a head a strict parser would read differently is one a client or a later hop
 * could be made to read differently too (response splitting, framing confusion).
 */
final class WireSyntax {
    /** {@code tchar} of RFC 9110 section 5.6.2: what a field name is made of. */
    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private WireSyntax() {
    }

    /** True when {@code s[from, to)} is a non-empty token. */
    static boolean token(String s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= 128 || !TCHAR[c]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A field value's characters (RFC 9110 section 5.5): visible ASCII, obs-text, SP and HTAB. A
     * CR, LF, NUL or any other control character is refused rather than stripped: the upstream that
     * sent it is broken or hostile, and no client should see what it meant.
     */
    static void fieldChars(String s, int from, int to, String what) throws MalformedAnswer {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw new MalformedAnswer("upstream sent a control character (0x" + Integer.toHexString(c) + ") in " + what);
            }
        }
    }

    /** Optional whitespace (RFC 9110 section 5.6.3). */
    static boolean ows(char c) {
        return c == ' ' || c == '\t';
    }

    /**
     * One {@code name: value} field line, validated; {@code into} receives the name and the value
     * without its surrounding whitespace.
     */
    static void fieldLine(String line, FieldSink into) throws MalformedAnswer {
        if (!line.isEmpty() && ows(line.charAt(0))) {
            // RFC 9112 section 5.2: obs-fold, or whitespace before the first field (section 2.2)
            throw new MalformedAnswer("upstream sent a folded or whitespace-led field line");
        }
        int colon = line.indexOf(':');
        if (colon < 0) {
            throw new MalformedAnswer("upstream sent a field line without a colon", printable(line));
        }
        if (!token(line, 0, colon)) {
            throw new MalformedAnswer("upstream sent a field name that is not a token", printable(line.substring(0, colon)));
        }
        int start = colon + 1;
        int end = line.length();
        while (start < end && ows(line.charAt(start))) {
            start++;
        }
        while (end > start && ows(line.charAt(end - 1))) {
            end--;
        }
        fieldChars(line, start, end, "the value of " + printable(line.substring(0, colon)));
        into.field(line.substring(0, colon), line.substring(start, end));
    }

    /** Where {@link #fieldLine} puts a valid field. */
    @FunctionalInterface
    interface FieldSink {
        void field(String name, String value) throws MalformedAnswer;
    }

    /** At most 40 characters, anything but printable ASCII shown as {@code ?}: safe for a log line. */
    static String printable(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) : s;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
