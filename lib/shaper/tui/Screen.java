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
 *   footer (keys, filter input, toast)
 * </pre>
 * Every row is exactly the terminal's width. Below {@link #MIN_WIDTH}×{@link #MIN_HEIGHT} it draws
 * a one-line notice instead. Cursor and scroll positions are clamped here, against what is drawn.
 */
final class Screen {
    static final int MIN_WIDTH = 50;
    static final int MIN_HEIGHT = 14;

    /** A drawn screen: its rows and where things are on it. */
    record Drawn(List<AttributedString> rows, Hits hits) {
    }

    private Screen() {
    }

    static Drawn render(Frame frame, ViewState state, Throughput throughput, int width, int height, boolean mouse, ZoneId zone) {
        if (width < MIN_WIDTH || height < MIN_HEIGHT) {
            return tooSmall(width, height);
        }
        state.provider = Math.floorMod(state.provider, frame.providers().size());
        ProviderFrame provider = frame.providers().get(state.provider);
        List<AttributedString> rows = new ArrayList<>(height);
        int maxChipRows = height >= 30 ? 3 : height >= 20 ? 2 : 1;
        Header.Drawn header = Header.render(frame, state.provider, width, maxChipRows);
        rows.addAll(header.rows());
        List<Span> tabs = new ArrayList<>();
        rows.add(TabBar.render(state.tab, width, rows.size(), tabs));
        Context context = new Context(frame, provider, state, throughput, width - 1, zone);
        Body body = switch (state.tab) {
            case DASHBOARD -> DashboardView.render(context);
            case REQUESTS -> RequestsView.render(context);
            case NETWORK -> NetworkView.render(context);
            case LOGS -> LogsView.render(context);
            case CONCURRENCY -> ConcurrencyView.render(context);
            case ROUTES -> RoutesView.render(context);
        };
        rows.add(separator(state, body, frame.providers().size() > 1 ? provider.name() : "", width));
        rows.addAll(body.sticky().stream().map(l -> withBar(l, width, null)).toList());
        int top = rows.size();
        int page = Math.max(1, height - top - 1);
        Scroll scroll = Scroll.fit(state, body, page);
        for (int i = 0; i < page; i++) {
            int index = scroll.offset() + i;
            AttributedString line = index < body.lines().size() ? body.lines().get(index) : Line.blank(width - 1);
            if (body.selectable() && index == scroll.cursor()) {
                line = new Line(width - 1).add(line.toString(), Theme.selection()).build(Theme.selection());
            }
            rows.add(withBar(line, width, scroll.bar(i, page, body.lines().size())));
        }
        rows.add(Footer.render(state, frame, width));
        Hits hits = new Hits(header.chips(), tabs, top, page, width - 1, body.lines().size(), body.detail(), false);
        List<AttributedString> out = Overlays.apply(rows, state, hits, width, mouse);
        return new Drawn(out, hits);
    }

    /** "━━ Requests · beta ━━━ filter: x ━": the tab, the provider when there are several, the notes. */
    private static AttributedString separator(ViewState state, Body body, String provider, int width) {
        String note = body.status();
        if (state.tab.filterable && (!state.filter().isEmpty() || state.editingFilter)) {
            note = (note.isEmpty() ? "" : note + "  ") + "filter: " + state.filter();
        }
        Line l = new Line(width).add("━━ ", Theme.separator()).add(state.tab.title, Theme.title());
        if (!provider.isEmpty()) {
            l.add(" · ", Theme.dim()).add(provider, Theme.accent());
        }
        l.add(" ", Theme.separator());
        int noteWidth = note.isEmpty() ? 0 : Line.columns(note) + 2;
        l.add("━".repeat(Math.max(0, l.left() - noteWidth - 1)), Theme.separator());
        if (!note.isEmpty()) {
            l.add(" " + note + " ", Theme.dim());
        }
        return l.add("━", Theme.separator()).build();
    }

    /** A content line of {@code width - 1} columns plus the scrollbar cell ({@code null}: blank). */
    private static AttributedString withBar(AttributedString line, int width, Boolean thumb) {
        Line bar = new Line(1);
        if (thumb != null) {
            bar.add(thumb ? "┃" : "┊", thumb ? Theme.scrollThumb() : Theme.scrollTrack());
        }
        return AttributedString.join(AttributedString.EMPTY, Line.slice(line, 0, width - 1), bar.build());
    }

    private static Drawn tooSmall(int width, int height) {
        List<AttributedString> rows = new ArrayList<>();
        String notice = "Terminal too small (" + width + "x" + height + "): the dashboard needs " + MIN_WIDTH + "x" + MIN_HEIGHT
                + ". q quits.";
        rows.add(new Line(width).add(Line.fit(notice, width), Theme.warn()).build());
        for (int i = 1; i < height; i++) {
            rows.add(Line.blank(width));
        }
        return new Drawn(rows, Hits.NONE);
    }
}
