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
        if (!r.priorityClass().isEmpty() || !r.model().isEmpty()) {
            l.add((r.priorityClass().isEmpty() ? "" : "class " + r.priorityClass() + "   ") + (r.model().isEmpty() ? "" : "model " + r.model()));
        }
        if (r.usage().source() != shaper.usage.TokenUsage.Source.NONE) {
            shaper.usage.TokenUsage u = r.usage();
            l.add("tokens in " + u.input() + "   out " + u.output() + "   cache read " + u.cacheRead() + "   cache write " + u.cacheWrite()
                    + (u.source() == shaper.usage.TokenUsage.Source.ESTIMATED ? "   (estimated)" : ""));
        }
        l.add("type " + r.kind().label() + " (" + (r.contentType().isEmpty() ? "none" : r.contentType()) + ")   size "
                + Format.size(r.responseBytes()));
        l.add("");
        l.add("Request headers (from the client)");
        headers(r.requestHeaders(), l);
        l.add("");
        if (r.attempts() == 0) {
            l.add("Sent upstream: nothing (the request never reached the upstream)");
        } else {
            l.add("Request headers (sent upstream" + (r.attempts() > 1 ? ", attempt " + r.attempts() : "") + ")");
            headers(r.upstreamHeaders(), l);
            List<String> removed = removed(r.requestHeaders(), r.upstreamHeaders());
            l.add("  removed: " + (removed.isEmpty() ? "none" : String.join(", ", removed)));
        }
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

    /**
     * The client's header names that did not go upstream, in the client's order, once each. Host is
     * left out: the upstream's is written by the HTTP client for the upstream's address.
     */
    static List<String> removed(List<Map.Entry<String, String>> client, List<Map.Entry<String, String>> upstream) {
        java.util.Set<String> sent = new java.util.HashSet<>();
        upstream.forEach(h -> sent.add(h.getKey().toLowerCase(java.util.Locale.ROOT)));
        java.util.Set<String> listed = new java.util.LinkedHashSet<>();
        for (Map.Entry<String, String> h : client) {
            String name = h.getKey().toLowerCase(java.util.Locale.ROOT);
            if (!sent.contains(name) && !name.equals("host") && listed.stream().noneMatch(n -> n.equalsIgnoreCase(name))) {
                listed.add(h.getKey());
            }
        }
        return List.copyOf(listed);
    }

    /** A log line, wrapped by the overlay. */
    static Overlay.Detail ofLog(String line) {
        return new Overlay.Detail("Log line", List.of(line), 0);
    }
}
