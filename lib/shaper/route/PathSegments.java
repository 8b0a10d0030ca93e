package shaper.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import shaper.mount.RequestPaths;

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
            String segment = RequestPaths.decodeUnreserved(part);
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
}
