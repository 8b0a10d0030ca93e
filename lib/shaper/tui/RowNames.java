package shaper.tui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Network tab's Name column: the last path segment, as a browser's network panel names a request, with as many
 * segments before it as it takes to tell apart the different paths on screen that end alike
 * ({@code a/messages} and {@code b/messages}), then the model the request names, so rows of
 * one endpoint read apart ({@code messages · claude-sonnet-4}).
 */
final class RowNames {
    private RowNames() {
    }

    /** One name per row, in the rows' order. */
    static List<String> of(List<RequestRow> rows) {
        Map<String, Set<String>> pathsByLast = new HashMap<>();
        for (RequestRow r : rows) {
            pathsByLast.computeIfAbsent(r.name(), k -> new HashSet<>()).add(r.path());
        }
        Map<String, String> byPath = new HashMap<>();
        List<String> out = new ArrayList<>(rows.size());
        for (RequestRow r : rows) {
            String path = byPath.computeIfAbsent(r.path(), p -> distinct(p, pathsByLast.get(r.name())));
            out.add(r.model().isEmpty() ? path : path + " · " + r.model());
        }
        return out;
    }

    /** The shortest tail of {@code path}'s segments that no other path of {@code alike} shares. */
    private static String distinct(String path, Set<String> alike) {
        List<String> segments = segments(path);
        if (alike.size() <= 1 || segments.isEmpty()) {
            return segments.isEmpty() ? "/" : segments.getLast();
        }
        for (int k = 2; k <= segments.size(); k++) {
            String tail = tail(segments, k);
            boolean shared = false;
            for (String other : alike) {
                if (!other.equals(path) && tail(segments(other), k).equals(tail)) {
                    shared = true;
                    break;
                }
            }
            if (!shared) {
                return tail;
            }
        }
        return path;
    }

    private static List<String> segments(String path) {
        List<String> s = new ArrayList<>();
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                s.add(part);
            }
        }
        return s;
    }

    private static String tail(List<String> segments, int k) {
        return String.join("/", segments.subList(Math.max(0, segments.size() - k), segments.size()));
    }
}
