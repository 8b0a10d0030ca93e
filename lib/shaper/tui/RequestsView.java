package shaper.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jline.utils.AttributedString;

/**
 * Tab 2: recent finished exchanges, newest first, with Time, Method, St, Duration and Path columns and
 * {@code [aborted]} after the path of an exchange that did not complete. {@code /} filters on the
 * text of a row; Enter opens its details.
 */
final class RequestsView {
    private RequestsView() {
    }

    static Body render(Context c) {
        int w = c.width();
        List<RequestRow> rows = matching(c.provider().requests(), c.state().filter());
        List<AttributedString> lines = new ArrayList<>(rows.size());
        for (RequestRow r : rows) {
            Line l = new Line(w).add(" ", Theme.text())
                    .cell(Format.clock(r.arrived(), c.zone()), 10, Theme.dim())
                    .cell(r.method(), 8, Theme.text())
                    .cell(Format.status(r.status()), 5, Theme.status(r.status()))
                    .cellRight(Format.duration(r.total()), 9, Theme.text()).add("  ", Theme.text());
            if (r.aborted()) {
                l.cell(r.url(), Math.max(1, l.left() - 10), Theme.text()).add(" [aborted]", Theme.error());
            } else {
                l.add(r.url(), Theme.text());
            }
            lines.add(l.build());
        }
        if (rows.isEmpty()) {
            lines.add(new Line(w).add(c.state().filter().isEmpty() ? "  no requests yet" : "  no request matches the filter",
                    Theme.muted()).build());
        }
        AttributedString header = new Line(w).add(" ", Theme.dim()).cell("Time", 10, Theme.dim()).cell("Method", 8, Theme.dim())
                .cell("St", 5, Theme.dim()).cellRight("Duration", 9, Theme.dim()).add("  Path", Theme.dim()).build();
        return new Body(List.of(header), lines, rows.isEmpty() ? null : i -> Details.of(rows.get(i), c.zone()), "");
    }

    /** Rows whose method, URL, status or outcome contains {@code filter} (case-insensitive). */
    static List<RequestRow> matching(List<RequestRow> rows, String filter) {
        if (filter.isEmpty()) {
            return rows;
        }
        String f = filter.toLowerCase(Locale.ROOT);
        return rows.stream().filter(r -> (r.method() + " " + r.url() + " " + r.status() + " " + r.outcome() + " " + r.reason())
                .toLowerCase(Locale.ROOT).contains(f)).toList();
    }
}
