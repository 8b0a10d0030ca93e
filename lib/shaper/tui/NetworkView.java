package shaper.tui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

/**
 * Tab 3: the browser-devtools view of recent exchanges: Name ({@link RowNames}), Method, St, Type, Size, Time and a
 * waterfall whose segments are the queue wait, the wait for upstream headers (TTFB) and the
 * download, scaled to the slowest row shown. {@code t} cycles the type filter, {@code s} the status
 * filter, {@code /} filters on text.
 */
final class NetworkView {
    private NetworkView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        int w = c.width();
        ViewState st = c.state();
        List<RequestRow> rows = RequestsView.matching(c.provider().requests(), st.filter()).stream()
                .filter(r -> st.kind == RequestRow.Kind.ALL || r.kind() == st.kind)
                .filter(r -> st.status.accepts(r.status())).toList();
        int nameWidth = Math.max(20, Math.min(40, w / 4));
        int fixed = 1 + nameWidth + 7 + 5 + 8 + 8 + 8 + 2;
        int bar = Math.max(0, w - fixed);
        long longest = rows.stream().mapToLong(r -> r.total().toNanos()).max().orElse(1);
        List<String> names = RowNames.of(rows);
        List<AttributedString> lines = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            RequestRow r = rows.get(i);
            Line l = new Line(w).add(" ", theme.text())
                    .cell(names.get(i), nameWidth, r.aborted() ? theme.error() : theme.text())
                    .cell(r.method(), 7, theme.text())
                    .cell(Format.status(r.status()), 5, theme.status(r.status()))
                    .cell(r.kind().label(), 8, theme.dim())
                    .cellRight(Format.size(r.responseBytes()), 7, theme.text()).add(" ", theme.text())
                    .cellRight(Format.duration(r.total()), 7, theme.text()).add("  ", theme.text());
            waterfall(theme, l, r, bar, longest);
            lines.add(l.build());
        }
        if (rows.isEmpty()) {
            lines.add(new Line(w).add("  no request matches", theme.muted()).build());
        }
        AttributedString header = new Line(w).add(" ", theme.dim()).cell("Name", nameWidth, theme.dim()).cell("Method", 7, theme.dim())
                .cell("St", 5, theme.dim()).cell("Type", 8, theme.dim()).cellRight("Size", 7, theme.dim()).add(" ", theme.dim())
                .cellRight("Time", 7, theme.dim()).add("  Waterfall", theme.dim()).build();
        String status = "type: " + st.kind.label() + " (t)  status: " + st.status.label() + " (s)";
        return new Body(List.of(header), lines, rows.isEmpty() ? null : i -> Details.of(rows.get(i), c.zone()), status);
    }

    /** Queue ░, TTFB ▒, download █, each at least one cell when it took any time. */
    private static void waterfall(Theme theme, Line l, RequestRow r, int cells, long longest) {
        if (cells <= 0) {
            return;
        }
        int q = cellsOf(r.queue(), cells, longest);
        int t = cellsOf(r.ttfb(), cells, longest);
        int d = cellsOf(r.download(), cells, longest);
        l.add("░".repeat(q), theme.waterfallQueue()).add("▒".repeat(t), theme.waterfallWait())
                .add("█".repeat(d), theme.waterfallDownload());
        if (r.aborted()) {
            l.add(" ✗", theme.error());
        }
    }

    private static int cellsOf(Duration d, int cells, long longest) {
        if (d == null || d.isZero() || d.isNegative()) {
            return 0;
        }
        return (int) Math.max(1, Math.min(cells, Math.round(d.toNanos() * (double) cells / Math.max(1, longest))));
    }
}
