package shaper.tui;

import java.util.List;

import org.jline.utils.AttributedString;

/**
 * The tab bar: " 1 Dashboard " … " 6 Routes ", the active tab filled like the active chip. Full
 * titles when they fit, short ones otherwise. Records each label's span for clicks.
 */
final class TabBar {
    private TabBar() {
    }

    static AttributedString render(Tab active, int width, int row, List<Span> spans) {
        boolean full = width(true) <= width;
        Line l = new Line(width);
        for (Tab t : Tab.values()) {
            l.add(" ", Theme.text());
            int from = l.used();
            l.add(" " + t.key + " " + (full ? t.title : t.shortTitle) + " ", t == active ? Theme.activeFill() : Theme.inactiveFill());
            spans.add(new Span(row, from, l.used(), t.ordinal()));
        }
        return l.build();
    }

    private static int width(boolean full) {
        int w = 0;
        for (Tab t : Tab.values()) {
            w += 1 + 3 + Line.columns(full ? t.title : t.shortTitle) + 1;
        }
        return w;
    }
}
