package shaper.tui;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

/**
 * Composes one full screen from a frame and the view state:
 * <pre>
 *   header (row 0, plus wrapped chip rows)
 *   tab bar
 *   ━━ separator with the tab's title and filter notes ━━
 *   content (sticky lines, then the scrolled region)   │ scrollbar
 *   footer (keys, filter input, the stop's progress)
 * </pre>
 * with the toast stack over the bottom content rows and an open overlay over everything. Every row
 * is exactly the terminal's width. Narrow terminals get the same screen with shorter tab labels and
 * the header's chips wrapped or elided; only below {@link #MIN_WIDTH}×{@link #MIN_HEIGHT} does a
 * one-line notice stand in for it. Cursor and scroll positions are clamped here, against what is drawn.
 */
final class Screen {
    /** The smallest terminal that gets the dashboard: header, tab bar, separator, 8 content rows, footer. */
    static final int MIN_WIDTH = 40;
    static final int MIN_HEIGHT = 12;

    /** A drawn screen: its rows and where things are on it. */
    record Drawn(List<AttributedString> rows, Hits hits) {
    }

    private Screen() {
    }

    static Drawn render(Frame frame, ViewState state, Throughput throughput, Theme theme, List<Toasts.Toast> toasts, int width,
                        int height, boolean mouse, ZoneId zone) {
        if (width < MIN_WIDTH || height < MIN_HEIGHT) {
            return tooSmall(theme, width, height);
        }
        state.provider = Math.floorMod(state.provider, frame.providers().size());
        ProviderFrame provider = frame.providers().get(state.provider);
        List<AttributedString> rows = new ArrayList<>(height);
        int maxChipRows = height >= 30 ? 3 : height >= 20 ? 2 : 1;
        Header.Drawn header = Header.render(theme, frame, state.provider, width, maxChipRows);
        rows.addAll(header.rows());
        List<Span> tabs = new ArrayList<>();
        rows.add(TabBar.render(theme, state.tab, width, rows.size(), tabs));
        Context context = new Context(frame, provider, state, throughput, width - 1, zone, theme);
        Body body = switch (state.tab) {
            case DASHBOARD -> DashboardView.render(context);
            case REQUESTS -> RequestsView.render(context);
            case NETWORK -> NetworkView.render(context);
            case LOGS -> LogsView.render(context);
            case CONCURRENCY -> ConcurrencyView.render(context);
            case ROUTES -> RoutesView.render(context);
            case TOKENS -> TokensView.render(context);
            case CLIENTS -> ClientsView.render(context);
        };
        rows.add(separator(theme, state, body, frame.providers().size() > 1 ? provider.name() : "", width));
        rows.addAll(body.sticky().stream().map(l -> withBar(theme, l, width, null)).toList());
        int top = rows.size();
        int page = Math.max(1, height - top - 1);
        Scroll scroll = Scroll.fit(state, body, page);
        for (int i = 0; i < page; i++) {
            int index = scroll.offset() + i;
            AttributedString line = index < body.lines().size() ? body.lines().get(index) : Line.blank(width - 1);
            if (body.selectable() && index == scroll.cursor()) {
                line = new Line(width - 1).add(line.toString(), theme.selection()).build(theme.selection());
            }
            rows.add(withBar(theme, line, width, scroll.bar(i, page, body.lines().size())));
        }
        rows.add(Footer.render(theme, state, frame, width));
        Hits hits = new Hits(header.chips(), tabs, top, page, width - 1, body.lines().size(), body.detail(), false);
        List<AttributedString> withToasts = ToastStack.apply(theme, rows, toasts, top, top + page, width);
        List<AttributedString> out = Overlays.apply(theme, withToasts, state, hits, width, mouse);
        return new Drawn(out, hits);
    }

    /** "━━ Requests · beta ━━━ filter: x ━": the tab, the provider when there are several, the notes. */
    private static AttributedString separator(Theme theme, ViewState state, Body body, String provider, int width) {
        String note = body.status();
        if (state.tab.filterable && (!state.filter().isEmpty() || state.editingFilter)) {
            note = (note.isEmpty() ? "" : note + "  ") + "filter: " + state.filter();
        }
        Line l = new Line(width).add("━━ ", theme.separator()).add(state.tab.title, theme.title());
        if (!provider.isEmpty()) {
            l.add(" · ", theme.dim()).add(provider, theme.accent());
        }
        l.add(" ", theme.separator());
        int noteWidth = note.isEmpty() ? 0 : Line.columns(note) + 2;
        l.add("━".repeat(Math.max(0, l.left() - noteWidth - 1)), theme.separator());
        if (!note.isEmpty()) {
            l.add(" " + note + " ", theme.dim());
        }
        return l.add("━", theme.separator()).build();
    }

    /** A content line of {@code width - 1} columns plus the scrollbar cell ({@code null}: blank). */
    private static AttributedString withBar(Theme theme, AttributedString line, int width, Boolean thumb) {
        Line bar = new Line(1);
        if (thumb != null) {
            bar.add(thumb ? "┃" : "┊", thumb ? theme.scrollThumb() : theme.scrollTrack());
        }
        return AttributedString.join(AttributedString.EMPTY, Line.slice(line, 0, width - 1), bar.build());
    }

    private static Drawn tooSmall(Theme theme, int width, int height) {
        List<AttributedString> rows = new ArrayList<>();
        String notice = "Terminal too small (" + width + "x" + height + "): the dashboard needs " + MIN_WIDTH + "x" + MIN_HEIGHT
                + ". q quits.";
        rows.add(new Line(width).add(Line.fit(notice, width), theme.warn()).build());
        for (int i = 1; i < height; i++) {
            rows.add(Line.blank(width));
        }
        return new Drawn(rows, Hits.NONE);
    }
}
