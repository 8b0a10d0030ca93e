package shaper.tui;


import org.jline.utils.AttributedString;

/** The bottom row: the filter being typed, or the main keys; the stop's progress on the right while the proxy stops. */
final class Footer {
    private Footer() {
    }

    static AttributedString render(Theme theme, ViewState state, Frame frame, int width) {
        Line l = new Line(width);
        if (state.editingFilter) {
            l.add(" / ", theme.accent()).add(state.filter(), theme.text()).add("▏", theme.accent())
                    .add("   Enter keep · Esc clear · Backspace edit", theme.dim());
            return l.build();
        }
        String toast = state.toast(frame.at());
        String keys = " q quit  ? help  1-8 tabs  j/k move  Enter detail" + (state.tab.filterable ? "  / filter" : "")
                + (state.tab == Tab.NETWORK ? "  t type  s status" : "") + "  c reset"
                + (frame.providers().size() > 1 ? "  Tab provider" : "");
        int right = toast == null ? 0 : Line.columns(toast) + 2;
        l.add(Line.fit(keys, Math.max(0, width - right)), theme.dim());
        if (toast != null) {
            l.padTo(width - right, theme.text()).add(" " + toast + " ", theme.accent());
        }
        return l.build();
    }
}
