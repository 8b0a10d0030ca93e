package shaper.tui;

import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

/**
 * Draws the open overlay (help, detail, reset confirmation) as a box over the content rows. The
 * help names mouse controls only when the terminal reports the mouse and the chips are on screen.
 */
final class Overlays {
    private Overlays() {
    }

    static List<AttributedString> apply(Theme theme, List<AttributedString> rows, ViewState state, Hits hits, int width, boolean mouse) {
        Overlay o = state.overlay;
        if (o == null) {
            return rows;
        }
        int boxWidth = Math.min(width - 4, 96);
        int maxRows = Math.max(3, hits.contentRows());
        List<String> text;
        String title;
        switch (o) {
            case Overlay.Help h -> {
                title = "Keys";
                text = help(mouse, !hits.chips().isEmpty());
            }
            case Overlay.ConfirmReset c -> {
                title = "Reset";
                text = List.of("Reset the dashboard's counters, routes, request list and logs?",
                        "(The proxy and its /metrics are not affected.)", "", "y  reset     n / Esc  keep");
            }
            case Overlay.Detail d -> {
                title = d.title();
                List<String> wrapped = new ArrayList<>();
                for (String s : d.lines()) {
                    wrapped.addAll(Line.wrap(s, boxWidth - 4));
                }
                int page = Math.max(1, maxRows - 3);
                int offset = Math.min(d.offset(), Math.max(0, wrapped.size() - page));
                if (offset != d.offset()) {
                    state.overlay = new Overlay.Detail(d.title(), d.lines(), offset);
                }
                text = new ArrayList<>(wrapped.subList(offset, Math.min(wrapped.size(), offset + page)));
                text.add(wrapped.size() > page ? "j/k scroll · Esc close  (" + (offset + 1) + "-" + (offset + text.size()) + " of "
                        + wrapped.size() + ")" : "Esc close");
            }
        }
        return box(theme, rows, title, text, boxWidth, hits.contentTop(), maxRows, width);
    }

    private static List<String> help(boolean mouse, boolean chips) {
        List<String> l = new ArrayList<>(List.of(
                "1-8            switch tab (Dashboard Requests Network Logs Concurrency Routes Tokens Clients)",
                "Tab / Shift+Tab  next / previous provider",
                "j k ↑ ↓        move          g G  Home End   top / bottom",
                "PgUp PgDn      page          Ctrl+U Ctrl+D    half page",
                "Enter Space    open details (Esc, Enter or Space closes)",
                "/              filter (tabs 2-4): Enter keeps, Esc clears",
                "t s            Network: cycle type / status filter",
                "c              reset the dashboard's counters (asks first)",
                "q Ctrl+C       quit: stop the proxy and restore the terminal"));
        if (mouse) {
            l.add("mouse          wheel scrolls, click selects a row or a tab" + (chips ? " or a provider chip" : "")
                    + ", click or drag the scrollbar");
        }
        l.add("");
        l.add("any key closes this help");
        return l;
    }

    private static List<AttributedString> box(Theme theme, List<AttributedString> rows, String title, List<String> text, int boxWidth,
                                              int top, int maxRows, int width) {
        List<AttributedString> out = new ArrayList<>(rows);
        int inner = boxWidth - 2;
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new Line(boxWidth).add("┏ ", theme.overlay()).add(title, theme.overlayTitle()).add(" ", theme.overlay())
                .add("━".repeat(Math.max(0, inner - Line.columns(title) - 2)), theme.overlay()).add("┓", theme.overlay()).build());
        for (String s : text.subList(0, Math.min(text.size(), maxRows - 2))) {
            lines.add(new Line(boxWidth).add("┃ ", theme.overlay()).cell(s, inner - 2, theme.overlay()).add(" ┃", theme.overlay())
                    .build(theme.overlay()));
        }
        lines.add(new Line(boxWidth).add("┗" + "━".repeat(inner) + "┛", theme.overlay()).build());
        int left = (width - boxWidth) / 2;
        int first = top + Math.max(0, (maxRows - lines.size()) / 2);
        for (int i = 0; i < lines.size() && first + i < out.size() - 1; i++) {
            AttributedString under = out.get(first + i);
            out.set(first + i, AttributedString.join(AttributedString.EMPTY, Line.slice(under, 0, left), lines.get(i),
                    Line.slice(under, left + boxWidth, width)));
        }
        return out;
    }
}
