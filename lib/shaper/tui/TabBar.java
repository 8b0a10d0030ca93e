package shaper.tui;

import java.util.List;

import org.jline.utils.AttributedString;

/**
 * The tab bar: " 1 Dashboard " … " 7 Tokens ", the active tab filled like the active chip. Full
 * titles when they fit, short ones otherwise, and on a narrow terminal only the active tab's short
 * title beside the other tabs' keys. Records each label's span for clicks.
 */
final class TabBar {
    private TabBar() {
    }

    static AttributedString render(Theme theme, Tab active, int width, int row, List<Span> spans) {
        boolean full = width(true) <= width;
        boolean keysOnly = !full && width(false) > width;
        Line l = new Line(width);
        for (Tab t : Tab.values()) {
            l.add(" ", theme.text());
            int from = l.used();
            l.add(" " + label(t, full, keysOnly && t != active) + " ", t == active ? theme.activeFill() : theme.inactiveFill());
            spans.add(new Span(row, from, l.used(), t.ordinal()));
        }
        return l.build();
    }

    private static String label(Tab t, boolean full, boolean keyOnly) {
        if (keyOnly) {
            return String.valueOf(t.key);
        }
        return t.key + " " + (full ? t.title : t.shortTitle);
    }

    private static int width(boolean full) {
        int w = 0;
        for (Tab t : Tab.values()) {
            w += 1 + 1 + Line.columns(label(t, full, false)) + 1;
        }
        return w;
    }
}
