package shaper.tui;


import org.jline.utils.AttributedString;

/** The bottom row: the filter being typed, or the main keys; a toast (such as "counters reset") on the right. */
final class Footer {
    private Footer() {
    }

    static AttributedString render(ViewState state, Frame frame, int width) {
        Line l = new Line(width);
        if (state.editingFilter) {
            l.add(" / ", Theme.accent()).add(state.filter(), Theme.text()).add("▏", Theme.accent())
                    .add("   Enter keep · Esc clear · Backspace edit", Theme.dim());
            return l.build();
        }
        String toast = state.toast(frame.at());
        String keys = " q quit  ? help  1-6 tabs  j/k move  Enter detail" + (state.tab.filterable ? "  / filter" : "")
                + (state.tab == Tab.NETWORK ? "  t type  s status" : "") + "  c reset"
                + (frame.providers().size() > 1 ? "  Tab provider" : "");
        int right = toast == null ? 0 : Line.columns(toast) + 2;
        l.add(Line.fit(keys, Math.max(0, width - right)), Theme.dim());
        if (toast != null) {
            l.padTo(width - right, Theme.text()).add(" " + toast + " ", Theme.accent());
        }
        return l.build();
    }
}
