package shaper.tui;

import java.util.List;
import java.util.function.IntFunction;

/**
 * Where the last drawn screen put things, for the mouse and for paging: chips, tabs, the scrolled
 * content region, and the scrollbar column.
 *
 * @param chips        provider chips as drawn (empty when elided)
 * @param tabs         the tab bar's labels ({@link Span#index()} is the tab's ordinal)
 * @param contentTop   first row of the scrolled region
 * @param contentRows  rows of the scrolled region (a page)
 * @param scrollbar    column of the scrollbar, -1 when none is drawn
 * @param bodyLines    scrollable lines of the current tab
 * @param selectable   whether those lines take a cursor
 * @param detail       opens the detail of scrollable line i; null for a tab without a cursor
 * @param tooSmall     whether only the "too small" notice was drawn
 */
record Hits(List<Span> chips, List<Span> tabs, int contentTop, int contentRows, int scrollbar, int bodyLines,
            IntFunction<Overlay.Detail> detail, boolean tooSmall) {
    Hits {
        chips = List.copyOf(chips);
        tabs = List.copyOf(tabs);
    }

    boolean selectable() {
        return detail != null;
    }

    static final Hits NONE = new Hits(List.of(), List.of(), 0, 1, -1, 0, null, true);
}
