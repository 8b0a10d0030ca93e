package shaper.mount;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Raw (still percent-encoded) request paths as mounts see them. Only dot segments are resolved
 * (RFC 3986 §5.2.4); every other byte, including empty segments and escapes such as {@code %2F},
 * stays exactly as the client sent it, so the forwarded path differs from the client's only where
 * {@code .} and {@code ..} were taken out.
 */
public final class RequestPaths {
    private RequestPaths() {
    }

    /**
     * Resolves {@code .} and {@code ..} segments, spelled literally or with unreserved escapes
     * ({@code %2E}, {@code %2e%2E}); {@code ..} never climbs above the root. A path ending in a dot
     * segment keeps its trailing slash ({@code /a/b/..} is {@code /a/}). A path not starting with
     * {@code /} (an asterisk-form target) is returned unchanged; {@code ""} becomes {@code /}.
     */
    public static String resolveDots(String rawPath) {
        Objects.requireNonNull(rawPath, "rawPath");
        if (rawPath.isEmpty()) {
            return "/";
        }
        if (!rawPath.startsWith("/") || (rawPath.indexOf('.') < 0 && rawPath.indexOf('%') < 0)) {
            return rawPath; // no dot segment can hide in a path without '.' and without an escape: nothing to resolve
        }
        String[] parts = rawPath.substring(1).split("/", -1);
        List<String> out = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            String decoded = decodeUnreserved(parts[i]);
            boolean last = i == parts.length - 1;
            if (decoded.equals(".") || decoded.equals("..")) {
                if (decoded.equals("..") && !out.isEmpty()) {
                    out.removeLast();
                }
                if (last) {
                    out.add("");
                }
                continue;
            }
            out.add(parts[i]);
        }
        return "/" + String.join("/", out);
    }

    /** The raw segments of a path that starts with {@code /}: {@code /a//b/} is {@code [a, "", b, ""]}, {@code /} is {@code [""]}. */
    static List<String> segments(String rawPath) {
        return List.of(rawPath.substring(1).split("/", -1));
    }

    /** Whether two raw segments name the same thing once unreserved escapes are decoded. */
    static boolean sameSegment(String raw, String literal) {
        return raw.equals(literal) || decodeUnreserved(raw).equals(literal);
    }

    /**
     * Decodes escapes of unreserved characters ({@code ALPHA DIGIT - . _ ~}, RFC 3986 §6.2.2.2) only;
     * other escapes (such as {@code %2F}) stay, so they never act as separators. Shared by mount
     * matching and route matching, which must agree on what a segment is.
     */
    public static String decodeUnreserved(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' && i + 2 < raw.length()) {
                int hi = hex(raw.charAt(i + 1));
                int lo = hex(raw.charAt(i + 2));
                char decoded = (char) (hi * 16 + lo);
                if (hi >= 0 && lo >= 0 && isUnreserved(decoded)) {
                    out.append(decoded);
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

    static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
