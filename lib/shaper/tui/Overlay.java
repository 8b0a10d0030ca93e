package shaper.tui;

import java.util.List;

/** What sits on top of the content, if anything: help, a detail view, or the reset confirmation. */
sealed interface Overlay {
    /** {@code ?}: the key reference; any key closes it. */
    record Help() implements Overlay {
    }

    /**
     * Enter on a row: the row's details as they were when it opened (later frames do not change it).
     *
     * @param title  the box title
     * @param lines  the text, one entry per line
     * @param offset first line shown
     */
    record Detail(String title, List<String> lines, int offset) implements Overlay {
        public Detail {
            lines = List.copyOf(lines);
        }

        /** Moved by {@code delta} lines, not above the top; the renderer clamps the bottom against the wrapped text. */
        Detail scrolled(int delta) {
            long moved = (long) offset + delta;
            return new Detail(title, lines, (int) Math.max(0, Math.min(Integer.MAX_VALUE / 2, moved)));
        }
    }

    /** {@code c}: "reset counters? y/n". */
    record ConfirmReset() implements Overlay {
    }
}
