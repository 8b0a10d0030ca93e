package shaper.tui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

/**
 * Tab 3: the browser-devtools view of recent exchanges: Name, Method, St, Type, Size, Time and a
 * waterfall whose segments are the queue wait, the wait for upstream headers (TTFB) and the
 * download, scaled to the slowest row shown. {@code t} cycles the type filter, {@code s} the status
 * filter, {@code /} filters on text.
 */
final class NetworkView {
    private NetworkView() {
    }

    static Body render(Context c) {
        int w = c.width();
        ViewState st = c.state();
        List<RequestRow> rows = RequestsView.matching(c.provider().requests(), st.filter()).stream()
                .filter(r -> st.kind == RequestRow.Kind.ALL || r.kind() == st.kind)
                .filter(r -> st.status.accepts(r.status())).toList();
        int fixed = 1 + 20 + 7 + 5 + 8 + 8 + 8 + 2;
        int bar = Math.max(0, w - fixed);
        long longest = rows.stream().mapToLong(r -> r.total().toNanos()).max().orElse(1);
        List<AttributedString> lines = new ArrayList<>(rows.size());
        for (RequestRow r : rows) {
            Line l = new Line(w).add(" ", Theme.text())
                    .cell(r.name(), 20, r.aborted() ? Theme.error() : Theme.text())
                    .cell(r.method(), 7, Theme.text())
                    .cell(Format.status(r.status()), 5, Theme.status(r.status()))
                    .cell(r.kind().label(), 8, Theme.dim())
                    .cellRight(Format.size(r.responseBytes()), 7, Theme.text()).add(" ", Theme.text())
                    .cellRight(Format.duration(r.total()), 7, Theme.text()).add("  ", Theme.text());
            waterfall(l, r, bar, longest);
            lines.add(l.build());
        }
        if (rows.isEmpty()) {
            lines.add(new Line(w).add("  no request matches", Theme.muted()).build());
        }
        AttributedString header = new Line(w).add(" ", Theme.dim()).cell("Name", 20, Theme.dim()).cell("Method", 7, Theme.dim())
                .cell("St", 5, Theme.dim()).cell("Type", 8, Theme.dim()).cellRight("Size", 7, Theme.dim()).add(" ", Theme.dim())
                .cellRight("Time", 7, Theme.dim()).add("  Waterfall", Theme.dim()).build();
        String status = "type: " + st.kind.label() + " (t)  status: " + st.status.label() + " (s)";
        return new Body(List.of(header), lines, rows.isEmpty() ? null : i -> Details.of(rows.get(i), c.zone()), status);
    }

    /** Queue ░, TTFB ▒, download █, each at least one cell when it took any time. */
    private static void waterfall(Line l, RequestRow r, int cells, long longest) {
        if (cells <= 0) {
            return;
        }
        int q = cellsOf(r.queue(), cells, longest);
        int t = cellsOf(r.ttfb(), cells, longest);
        int d = cellsOf(r.download(), cells, longest);
        l.add("░".repeat(q), Theme.waterfallQueue()).add("▒".repeat(t), Theme.waterfallWait())
                .add("█".repeat(d), Theme.waterfallDownload());
        if (r.aborted()) {
            l.add(" ✗", Theme.error());
        }
    }

    private static int cellsOf(Duration d, int cells, long longest) {
        if (d == null || d.isZero() || d.isNegative()) {
            return 0;
        }
        return (int) Math.max(1, Math.min(cells, Math.round(d.toNanos() * (double) cells / Math.max(1, longest))));
    }
}
