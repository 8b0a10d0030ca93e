package shaper.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jline.utils.AttributedString;

/**
 * Tab 2: recent finished exchanges, newest first, with Time, Method, St, Duration, Class (when the
 * provider declares priority classes) and Path columns and
 * {@code [aborted]} after the path of an exchange that did not complete. {@code /} filters on the
 * text of a row; Enter opens its details.
 */
final class RequestsView {
    /** The Class column's width, shown when the provider declares priority classes. */
    private static final int CLASS = 13;
    private RequestsView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        int w = c.width();
        List<RequestRow> rows = matching(c.provider().requests(), c.state().filter());
        List<AttributedString> lines = new ArrayList<>(rows.size());
        boolean classes = rows.stream().anyMatch(r -> !r.priorityClass().isEmpty());
        for (RequestRow r : rows) {
            Line l = new Line(w).add(" ", theme.text())
                    .cell(Format.clock(r.arrived(), c.zone()), 10, theme.dim())
                    .cell(r.method(), 8, theme.text())
                    .cell(Format.status(r.status()), 5, theme.status(r.status()))
                    .cellRight(Format.duration(r.total()), 9, theme.text()).add("  ", theme.text());
            if (classes) {
                l.cell(r.priorityClass(), CLASS, theme.accent());
            }
            if (r.aborted()) {
                l.cell(r.url(), Math.max(1, l.left() - 10), theme.text()).add(" [aborted]", theme.error());
            } else {
                l.add(r.url(), theme.text());
            }
            lines.add(l.build());
        }
        if (rows.isEmpty()) {
            lines.add(new Line(w).add(c.state().filter().isEmpty() ? "  no requests yet" : "  no request matches the filter",
                    theme.muted()).build());
        }
        Line head = new Line(w).add(" ", theme.dim()).cell("Time", 10, theme.dim()).cell("Method", 8, theme.dim())
                .cell("St", 5, theme.dim()).cellRight("Duration", 9, theme.dim()).add("  ", theme.dim());
        if (classes) {
            head.cell("Class", CLASS, theme.dim());
        }
        AttributedString header = head.add("Path", theme.dim()).build();
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
