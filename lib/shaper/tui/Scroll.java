package shaper.tui;

/**
 * The visible window over a tab's scrollable lines. For a list the cursor is clamped to the lines
 * and the window follows it; otherwise the offset is clamped so the last page is full.
 *
 * @param offset first visible line
 * @param cursor selected line, -1 for a tab without a cursor
 */
record Scroll(int offset, int cursor) {
    /** Clamps the state's cursor and offset against {@code body} shown {@code page} lines at a time, and stores them back. */
    static Scroll fit(ViewState state, Body body, int page) {
        int n = body.lines().size();
        int maxOffset = Math.max(0, n - page);
        if (!body.selectable()) {
            int offset = Math.min(state.offset(), maxOffset);
            state.offset(offset);
            return new Scroll(offset, -1);
        }
        int cursor = Math.min(state.cursor(), Math.max(0, n - 1));
        int offset = Math.min(state.offset(), maxOffset);
        if (cursor < offset) {
            offset = cursor;
        } else if (cursor >= offset + page) {
            offset = cursor - page + 1;
        }
        state.cursor(cursor);
        state.offset(offset);
        return new Scroll(offset, cursor);
    }

    /** The scrollbar cell for visible row {@code i}: null when everything fits, else thumb (true) or track. */
    Boolean bar(int i, int page, int total) {
        if (total <= page) {
            return null;
        }
        int thumb = Math.max(1, page * page / total);
        int start = (int) Math.round((page - thumb) * (offset / (double) Math.max(1, total - page)));
        return i >= start && i < start + thumb;
    }
}
