package shaper.mount;

import java.util.List;
import java.util.Objects;

import shaper.config.ConfigException;

/**
 * A provider's mount path ({@code -prefix}), normalized: {@code ""} and {@code /} are the bare
 * root, one trailing slash is trimmed, anything else must start with {@code /}. Segments are
 * non-empty, not {@code .} or {@code ..}, and free of {@code %}, {@code ?}, {@code #}, whitespace
 * and control characters, so a prefix has exactly one spelling and prints verbatim in messages.
 *
 * @param path     the normalized path, {@code ""} for the bare root, else {@code /a} or {@code /a/b}
 * @param segments the path's segments, empty for the bare root
 */
public record MountPrefix(String path, List<String> segments) {
    /** The bare root: every path belongs to it. */
    public static final MountPrefix ROOT = new MountPrefix("", List.of());

    public MountPrefix {
        Objects.requireNonNull(path, "path");
        segments = List.copyOf(segments);
        if (!path.equals(segments.isEmpty() ? "" : "/" + String.join("/", segments))) {
            throw new IllegalArgumentException("path: " + path + " (expected: the segments " + segments + " joined)");
        }
    }

    /**
     * Parses a {@code -prefix} value.
     *
     * @throws ConfigException {@code -prefix must start with /, got "x"} and the like
     */
    public static MountPrefix parse(String text) {
        Objects.requireNonNull(text, "text");
        String p = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
        if (p.isEmpty()) {
            return ROOT;
        }
        if (!p.startsWith("/")) {
            throw new ConfigException("-prefix must start with /, got " + quote(text));
        }
        List<String> segments = List.of(p.substring(1).split("/", -1));
        for (String s : segments) {
            if (s.isEmpty() || s.equals(".") || s.equals("..") || !plain(s)) {
                throw new ConfigException("-prefix " + quote(text) + " is not a plain path (expected: /segment[/segment...]"
                        + " without empty, \".\" or \"..\" segments, '%', '?', '#', spaces or control characters)");
            }
        }
        return new MountPrefix(p, segments);
    }

    public boolean isRoot() {
        return segments.isEmpty();
    }

    /** Whether one of the two contains the other segment-wise ({@code /a} and {@code /a/b}; equal prefixes; the root and anything). */
    public boolean overlaps(MountPrefix other) {
        int n = Math.min(segments.size(), other.segments.size());
        return segments.subList(0, n).equals(other.segments.subList(0, n));
    }

    /** Whether the resolved raw path's leading segments are this prefix's, whole segment by whole segment. */
    boolean leads(List<String> pathSegments) {
        if (pathSegments.size() < segments.size()) {
            return false;
        }
        for (int i = 0; i < segments.size(); i++) {
            if (!RequestPaths.sameSegment(pathSegments.get(i), segments.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code /} for the bare root, else the path. */
    @Override
    public String toString() {
        return isRoot() ? "/" : path;
    }

    /** Go's {@code %q} for the texts that reach it (a rejected value may hold anything). */
    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static boolean plain(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '%' || c == '?' || c == '#') {
                return false;
            }
        }
        return true;
    }
}
