package shaper.tui;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The text of the detail overlay for a request row or a log line. */
final class Details {
    private Details() {
    }

    static Overlay.Detail of(RequestRow r, ZoneId zone) {
        List<String> l = new ArrayList<>();
        l.add(r.method() + " " + r.url());
        l.add("status " + Format.status(r.status()) + "   outcome " + r.outcome() + " (" + r.reason() + ")   " + (r.limited() ? "limited" : "passthrough")
                + "   attempts " + r.attempts());
        l.add("arrived " + Format.clock(r.arrived(), zone) + "   total " + Format.duration(r.total()));
        l.add("queue " + Format.duration(r.queue()) + "   ttfb " + Format.duration(r.ttfb()) + "   download "
                + (r.aborted() ? "- (aborted)" : Format.duration(r.download())));
        l.add("type " + r.kind().label() + " (" + (r.contentType().isEmpty() ? "none" : r.contentType()) + ")   size "
                + Format.size(r.responseBytes()));
        l.add("");
        l.add("Request headers");
        headers(r.requestHeaders(), l);
        if (!r.requestPreview().isEmpty()) {
            l.add("");
            l.add("Request body");
            r.requestPreview().lines().forEach(s -> l.add("  " + s));
        }
        l.add("");
        l.add("Response headers");
        headers(r.responseHeaders(), l);
        if (!r.responsePreview().isEmpty()) {
            l.add("");
            l.add("Response body");
            r.responsePreview().lines().forEach(s -> l.add("  " + s));
        }
        return new Overlay.Detail("Request #" + r.id(), l, 0);
    }

    private static void headers(List<Map.Entry<String, String>> headers, List<String> out) {
        if (headers.isEmpty()) {
            out.add("  (none)");
        }
        for (Map.Entry<String, String> h : headers) {
            out.add("  " + h.getKey() + ": " + h.getValue());
        }
    }

    /** A log line, wrapped by the overlay. */
    static Overlay.Detail ofLog(String line) {
        return new Overlay.Detail("Log line", List.of(line), 0);
    }
}
