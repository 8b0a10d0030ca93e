package shaper.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Canonical segments of a raw (still percent-encoded) URL path, as route matching compares them.
 *
 * <p>Steps, in order: split on {@code /}; decode percent-escapes of unreserved characters
 * ({@code ALPHA DIGIT - . _ ~}), which RFC 3986 §6.2.2.2 declares equivalent to the literal
 * characters, so {@code %63hat} is {@code chat} and {@code %2E%2E} is {@code ..}; drop empty and
 * {@code .} segments; let {@code ..} remove the previous segment (never above the root); finally
 * split each remaining segment on {@code :} and drop empty pieces. Escapes of reserved characters
 * ({@code %2F}, {@code %3A}, {@code %40}) stay encoded: they are data, not separators, so
 * {@code chat%2Fcompletions} is one segment and matches no pattern literal.
 */
public final class PathSegments {
    private PathSegments() {
    }

    /** Segments of {@code rawPath} (path only, no query); the root path and {@code ""} give an empty list. */
    public static List<String> of(String rawPath) {
        Objects.requireNonNull(rawPath, "rawPath");
        List<String> resolved = new ArrayList<>();
        for (String part : rawPath.split("/", -1)) {
            String segment = decodeUnreserved(part);
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (!resolved.isEmpty()) {
                    resolved.removeLast();
                }
                continue;
            }
            resolved.add(segment);
        }
        List<String> segments = new ArrayList<>(resolved.size());
        for (String segment : resolved) {
            for (String piece : segment.split(":", -1)) {
                if (!piece.isEmpty()) {
                    segments.add(piece);
                }
            }
        }
        return List.copyOf(segments);
    }

    private static String decodeUnreserved(String part) {
        if (part.indexOf('%') < 0) {
            return part;
        }
        StringBuilder out = new StringBuilder(part.length());
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '%' && i + 2 < part.length()) {
                int hi = hex(part.charAt(i + 1));
                int lo = hex(part.charAt(i + 2));
                if (hi >= 0 && lo >= 0 && isUnreserved((char) (hi * 16 + lo))) {
                    out.append((char) (hi * 16 + lo));
                    i += 2;
                    continue;
                }
            }
            out.append(c);
        }
        return out.toString();
    }

    // Character.digit would also accept non-ASCII digits, which are not valid in an escape.
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
