package shaper.tui;

/**
 * Where a clickable thing was drawn: row, first and last column (exclusive), and which thing
 * (a provider index or a tab ordinal). Mouse clicks are matched against these, so clicks track what
 * is on screen rather than a recomputed layout.
 */
record Span(int row, int from, int to, int index) {
    boolean contains(int x, int y) {
        return y == row && x >= from && x < to;
    }
}
