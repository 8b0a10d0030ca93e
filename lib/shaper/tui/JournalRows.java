package shaper.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import shaper.observe.ExchangeRecord;
import shaper.observe.Header;
import shaper.observe.InFlight;
import shaper.observe.Journal;

/**
 * Copies a provider's journal (recent finished exchanges and the exchanges still in flight) into the
 * dashboard's own rows, so renderers depend on the dashboard's types only.
 */
final class JournalRows {
    private JournalRows() {
    }

    /**
     * Finished exchanges, newest first, leaving out the {@code hidden} ids. Records are immutable, so
     * a row once made is taken from {@code made} (by journal id) next time; {@code made} is left
     * holding the rows of this call only.
     */
    static List<RequestRow> recent(Journal journal, Set<Long> hidden, Map<Long, RequestRow> made) {
        List<ExchangeRecord> records = journal.recent();
        List<RequestRow> rows = new ArrayList<>(records.size());
        Map<Long, RequestRow> now = new java.util.HashMap<>();
        for (ExchangeRecord r : records) {
            if (!hidden.contains(r.id())) {
                RequestRow row = made.get(r.id());
                row = row != null ? row : row(r);
                now.put(r.id(), row);
                rows.add(row);
            }
        }
        made.clear();
        made.putAll(now);
        return rows;
    }

    /** Exchanges still running, oldest first. */
    static List<InFlightRow> inFlight(Journal journal) {
        List<InFlight> views = journal.inFlight();
        List<InFlightRow> rows = new ArrayList<>(views.size());
        for (InFlight f : views) {
            rows.add(new InFlightRow(f.method(), f.path(), f.route() == shaper.observe.RouteKind.LIMITED,
                    f.state() == InFlight.State.QUEUED, f.age(), f.waitingFor(), f.priorityClass(), f.client(),
                    f.retryWait().map(w -> "retry " + w.nextAttempt() + " in " + Format.duration(w.nextTryIn()) + ": " + w.why()).orElse("")));
        }
        return rows;
    }

    static RequestRow row(ExchangeRecord r) {
        return new RequestRow(r.id(), r.timings().arrivedAt(), r.method(), r.url(), r.status(), r.limited(), r.aborted(),
                r.outcome().label(), r.reason().label(),
                r.attempts(), r.timings().queueWait(), r.timings().ttfb().orElse(null),
                r.aborted() ? null : r.timings().download().orElse(null), r.timings().duration(), r.contentType(),
                r.responseBytes(), headers(r.requestHeaders()), headers(r.upstreamHeaders()), headers(r.responseHeaders()),
                preview(r.requestBody()), preview(r.responseBody()),
                model(r.requestBody()).isEmpty() ? r.usage().model() : model(r.requestBody()), r.priorityClass(), r.usage(), r.client());
    }

    /** The top-level-looking {@code "model": "…"} of a JSON request body preview, "" when none. Display only. */
    static String model(shaper.observe.BodyPreview body) {
        if (body.size() == 0) {
            return "";
        }
        java.util.regex.Matcher m = MODEL.matcher(body.text());
        return m.find() ? m.group(1) : "";
    }

    private static final java.util.regex.Pattern MODEL = java.util.regex.Pattern.compile("\"model\"\\s*:\\s*\"([^\"\\\\]{1,100})\"");

    private static List<Map.Entry<String, String>> headers(List<Header> headers) {
        return headers.stream().map(h -> Map.entry(h.name(), h.value())).toList();
    }

    private static String preview(shaper.observe.BodyPreview p) {
        return p.size() == 0 ? "" : p.text() + (p.truncated() ? " …(truncated)" : "");
    }
}
