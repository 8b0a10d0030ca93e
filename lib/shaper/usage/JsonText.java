package shaper.usage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Byte-level reading of JSON text the scanner does not parse whole: characters of the text fields
 * (the output estimate), the first {@code "model"} string, and the last {@code "usage"} object.
 * Tolerant by design: it reads partial documents (a head or a tail of a large body).
 */
final class JsonText {
    /**
     * Fields whose string values are generated text in one of the dialects, as bytes: every key of
     * every event is compared against them, and a String per key would be garbage per event.
     */
    private static final byte[][] TEXT_FIELDS = Stream.of("text", "thinking", "partial_json", "content", "reasoning_content",
            "reasoning", "arguments", "delta", "refusal").map(f -> f.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    private JsonText() {
    }

    /** Characters (UTF-8 code points; an escape counts as one) in the string values of text fields. */
    static long textChars(byte[] b, int len) {
        long chars = 0;
        int i = 0;
        while (i < len) {
            if (b[i] != '"') {
                i++;
                continue;
            }
            int end = stringEnd(b, i + 1, len);
            int k = skipSpace(b, end + 1, len);
            if (k < len && b[k] == ':' && textField(b, i + 1, end)) {
                int v = skipSpace(b, k + 1, len);
                if (v < len && b[v] == '"') {
                    int vEnd = stringEnd(b, v + 1, len);
                    chars += codePoints(b, v + 1, vEnd);
                    i = vEnd + 1;
                    continue;
                }
            }
            i = end + 1;
        }
        return chars;
    }

    /** Whether {@code b[from, to)} is one of {@link #TEXT_FIELDS}. */
    private static boolean textField(byte[] b, int from, int to) {
        for (byte[] f : TEXT_FIELDS) {
            if (Arrays.equals(b, from, to, f, 0, f.length)) {
                return true;
            }
        }
        return false;
    }

    /** The value of the first {@code "model": "..."} pair, or null. */
    static String firstModel(byte[] b, int len) {
        int at = find(b, len, 0, "\"model\"");
        while (at >= 0) {
            int k = skipSpace(b, at + 7, len);
            if ((at == 0 || b[at - 1] != '\\') && k < len && b[k] == ':') {
                int v = skipSpace(b, k + 1, len);
                if (v < len && b[v] == '"') {
                    int end = stringEnd(b, v + 1, len);
                    return end < len ? new String(b, v + 1, end - v - 1, StandardCharsets.UTF_8) : null;
                }
            }
            at = find(b, len, at + 1, "\"model\"");
        }
        return null;
    }

    /** The text of the last {@code "usage": {...}} object that is complete in {@code b}, or null. */
    static String lastUsageObject(byte[] b, int len) {
        String result = null;
        for (int at = find(b, len, 0, "\"usage\""); at >= 0; at = find(b, len, at + 1, "\"usage\"")) {
            int v = usageObjectStart(b, len, at);
            if (v >= 0) {
                int end = objectEnd(b, v, len);
                if (end > 0) {
                    result = new String(b, v, end - v, StandardCharsets.UTF_8);
                }
            }
        }
        return result;
    }

    /**
     * Whether some {@code "usage"} key has an object value: Chat's {@code include_usage} stream names
     * {@code "usage": null} in every chunk but the last, and those need no parse.
     */
    static boolean hasUsageObject(byte[] b, int len) {
        for (int at = find(b, len, 0, "\"usage\""); at >= 0; at = find(b, len, at + 1, "\"usage\"")) {
            if (usageObjectStart(b, len, at) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Where the object value of the {@code "usage"} key found at {@code at} opens; -1 when it is not a key with an object value. */
    private static int usageObjectStart(byte[] b, int len, int at) {
        if (at > 0 && b[at - 1] == '\\') {
            return -1; // an escaped quote is text inside a string
        }
        int k = skipSpace(b, at + 7, len);
        if (k >= len || b[k] != ':') {
            return -1;
        }
        int v = skipSpace(b, k + 1, len);
        return v < len && b[v] == '{' ? v : -1;
    }

    /** Whether {@code needle} (ASCII) occurs in {@code b[0, len)}. */
    static boolean contains(byte[] b, int len, String needle) {
        return find(b, len, 0, needle) >= 0;
    }

    static int find(byte[] b, int len, int from, String needle) {
        int n = needle.length();
        byte first = (byte) needle.charAt(0);
        outer:
        for (int i = from; i <= len - n; i++) {
            if (b[i] != first) {
                continue;
            }
            for (int j = 1; j < n; j++) {
                if (b[i + j] != (byte) needle.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The index of the quote closing a string whose content starts at {@code from}; {@code len} if none. */
    private static int stringEnd(byte[] b, int from, int len) {
        int i = from;
        while (i < len && b[i] != '"') {
            i += b[i] == '\\' ? 2 : 1;
        }
        return Math.min(i, len);
    }

    /** One past the brace closing the object opened at {@code open}; -1 if it is not closed in the window. */
    private static int objectEnd(byte[] b, int open, int len) {
        int depth = 0;
        int i = open;
        while (i < len) {
            byte c = b[i];
            if (c == '"') {
                i = stringEnd(b, i + 1, len) + 1;
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            }
            i++;
        }
        return -1;
    }

    private static int skipSpace(byte[] b, int i, int len) {
        while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) {
            i++;
        }
        return i;
    }

    private static long codePoints(byte[] b, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            if (b[i] == '\\') {
                n++;
                i++; // the escaped character; a \\uXXXX escape counts its hex digits as well, close enough
            } else if ((b[i] & 0xC0) != 0x80) {
                n++;
            }
        }
        return n;
    }
}
