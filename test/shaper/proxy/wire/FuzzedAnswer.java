package shaper.proxy.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One generated upstream answer and what a strict HTTP/1.1 parser makes of it. A valid answer
 * varies everything the grammar allows (field count and order, repeated names, whitespace around
 * values, obs-text, bare LF line ends, interim heads, reason phrases, chunk sizes with leading
 * zeros and either case, extensions, trailers); a broken one carries exactly one defect, and a
 * marker that must never reach the client, in or after the broken part.
 *
 * @param wire     the bytes the upstream writes (ISO-8859-1 characters)
 * @param valid    whether a strict parser accepts the whole answer
 * @param headBad  broken before the body starts (the client must get a 502); else a broken chunk stream
 * @param status   the final status of a valid answer
 * @param fields   the {@code X-Fz-*} fields of a valid answer, name and value without surrounding whitespace
 * @param body     the body of a valid answer, or the part before the broken frame of a broken chunk stream
 * @param marker   text that appears only inside or after the defect
 * @param defect   which defect (for a failure message)
 */
record FuzzedAnswer(String wire, boolean valid, boolean headBad, int status, List<String[]> fields, String body, String marker,
                    String defect) {
    private static final int[] STATUSES = {200, 201, 202, 203, 400, 404, 418};
    private static final String TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String NOT_TCHAR = " \"(),/;<=>?@[\\]{}\u0080\u00ff";

    static FuzzedAnswer generate(Random r, int index) {
        String marker = "MARK" + index + "X";
        int kind = r.nextInt(3); // 0: valid, 1: broken head, 2: broken chunk stream
        StringBuilder w = new StringBuilder();
        int interim = r.nextInt(4) == 0 ? 1 + r.nextInt(3) : 0;
        for (int i = 0; i < interim; i++) {
            w.append(r.nextBoolean() ? "HTTP/1.1 100 Continue\r\n\r\n" : "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n");
        }
        int status = STATUSES[r.nextInt(STATUSES.length)];
        String eol = r.nextInt(8) == 0 ? "\n" : "\r\n";
        w.append("HTTP/1.1 ").append(status).append(' ').append(reason(r)).append(eol);
        List<String[]> fields = new ArrayList<>();
        int n = r.nextInt(30);
        for (int i = 0; i < n; i++) {
            String name = i > 0 && r.nextInt(5) == 0 ? fields.get(r.nextInt(fields.size()))[0] : "X-Fz-" + token(r, 1 + r.nextInt(12));
            String value = value(r);
            fields.add(new String[] {name, value});
            w.append(name).append(':').append(ows(r)).append(value).append(ows(r)).append(eol);
        }
        String body = text(r, r.nextInt(3000));
        boolean chunked = kind == 2 || r.nextBoolean();
        if (kind == 1) {
            String d = HeadDefects.apply(r, w, marker, eol);
            // the body carries the marker too: a broken head must not be relayed at all
            w.append("Content-Length: ").append(marker.length()).append("\r\n\r\n").append(marker);
            return new FuzzedAnswer(w.toString(), false, true, status, fields, "", marker, d);
        }
        if (!chunked) {
            w.append("Content-Length: ").append(body.length()).append(eol).append(eol).append(body);
            return new FuzzedAnswer(w.toString(), true, false, status, fields, body, marker, "none");
        }
        w.append("Transfer-Encoding: chunked").append(eol).append(eol);
        int at = 0;
        while (at < body.length()) {
            int size = Math.min(body.length() - at, 1 + r.nextInt(700));
            w.append(size(r, size)).append(extension(r)).append("\r\n").append(body, at, at + size).append("\r\n");
            at += size;
        }
        if (kind == 2) {
            String d = ChunkDefects.apply(r, w, marker);
            return new FuzzedAnswer(w.toString(), false, false, status, fields, body, marker, d);
        }
        w.append("0").append(extension(r)).append("\r\n");
        if (r.nextBoolean()) {
            w.append("X-Trailer-").append(token(r, 4)).append(": ").append(value(r)).append("\r\n");
        }
        w.append("\r\n");
        return new FuzzedAnswer(w.toString(), true, false, status, fields, body, marker, "none");
    }

    private static String reason(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> "";
            case 1 -> "OK";
            case 2 -> "Whatever \u00e9t\u00e9 " + token(r, 5);
            default -> text(r, r.nextInt(20));
        };
    }

    static String token(Random r, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(TCHARS.charAt(r.nextInt(TCHARS.length())));
        }
        return sb.toString();
    }

    static char notTchar(Random r) {
        return NOT_TCHAR.charAt(r.nextInt(NOT_TCHAR.length()));
    }

    /** A field value: visible ASCII and obs-text, inner spaces and tabs, never leading or trailing whitespace. */
    private static String value(Random r) {
        int length = r.nextInt(40);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int p = r.nextInt(20);
            char c = p == 0 ? ' ' : p == 1 ? '\t' : p == 2 ? (char) (0x80 + r.nextInt(0x80)) : (char) (0x21 + r.nextInt(0x5e));
            sb.append(c);
        }
        return sb.toString().strip();
    }

    private static String ows(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> "";
            case 1 -> " ";
            case 2 -> "\t";
            default -> "  \t ";
        };
    }

    static String text(Random r, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }

    private static String size(Random r, int size) {
        String hex = r.nextBoolean() ? Integer.toHexString(size) : Integer.toHexString(size).toUpperCase();
        return "0".repeat(r.nextInt(3)) + hex;
    }

    private static String extension(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> ";a=1";
            case 1 -> " ;b";
            case 2 -> ";c=\"q;v\";d";
            default -> "";
        };
    }
}
