package shaper.tui;

import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.jline.utils.WCWidth;

/**
 * Builds one screen row of a fixed width in terminal columns: text is clipped (never wrapped) at the
 * right edge, cells are padded to their width, and {@link #build} fills the rest, so every row the
 * dashboard draws is exactly as wide as the terminal. Wide characters count two columns.
 */
final class Line {
    private final AttributedStringBuilder sb = new AttributedStringBuilder();
    private final int width;
    private int used;

    Line(int width) {
        this.width = Math.max(0, width);
    }

    /** Columns written so far. */
    int used() {
        return used;
    }

    /** Columns left. */
    int left() {
        return width - used;
    }

    /** Appends as much of {@code text} as fits; control characters show as U+FFFD, never reach the terminal. */
    Line add(String text, AttributedStyle style) {
        text.codePoints().map(Line::printable).forEachOrdered(cp -> {
            int w = columns(cp);
            if (used + w <= width) {
                sb.style(style).appendCodePoint(cp);
                used += w;
            }
        });
        return this;
    }

    /** Appends {@code text} clipped or padded to exactly {@code cells} columns, with a "…" when clipped. */
    Line cell(String text, int cells, AttributedStyle style) {
        String t = fit(text, cells);
        add(t, style);
        return spaces(cells - columns(t), style);
    }

    /** Like {@link #cell} but aligned right. */
    Line cellRight(String text, int cells, AttributedStyle style) {
        String t = fit(text, cells);
        spaces(cells - columns(t), style);
        return add(t, style);
    }

    /** Appends {@code n} spaces (as many as fit). */
    Line spaces(int n, AttributedStyle style) {
        for (int i = 0; i < n && used < width; i++) {
            sb.style(style).append(' ');
            used++;
        }
        return this;
    }

    /** Pads with spaces up to column {@code column}. */
    Line padTo(int column, AttributedStyle style) {
        return spaces(column - used, style);
    }

    /** The row, filled to the full width with {@code fill}. */
    AttributedString build(AttributedStyle fill) {
        spaces(width - used, fill);
        return sb.toAttributedString();
    }

    /** The row, filled with the default style. */
    AttributedString build() {
        return build(AttributedStyle.DEFAULT);
    }

    /** {@code text} clipped to {@code cells} columns, ending in "…" when something was cut. */
    static String fit(String text, int cells) {
        if (cells <= 0) {
            return "";
        }
        if (columns(text) <= cells) {
            return text;
        }
        StringBuilder out = new StringBuilder();
        int used = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int w = columns(cp);
            if (used + w > cells - 1) {
                break;
            }
            out.appendCodePoint(cp);
            used += w;
            i += Character.charCount(cp);
        }
        return out.append('…').toString();
    }

    /** Terminal columns of {@code text}. */
    static int columns(String text) {
        return text.codePoints().map(Line::columns).sum();
    }

    private static int columns(int cp) {
        return Math.max(0, WCWidth.wcwidth(printable(cp)));
    }

    private static int printable(int cp) {
        return cp < 0x20 || cp >= 0x7f && cp < 0xa0 ? 0xFFFD : cp;
    }

    /** {@code text} cut into pieces of at most {@code cells} columns (at least one piece). */
    static java.util.List<String> wrap(String text, int cells) {
        java.util.List<String> out = new java.util.ArrayList<>();
        StringBuilder piece = new StringBuilder();
        int used = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int w = columns(cp);
            if (used + w > Math.max(1, cells) && piece.length() > 0) {
                out.add(piece.toString());
                piece.setLength(0);
                used = 0;
            }
            piece.appendCodePoint(cp);
            used += w;
            i += Character.charCount(cp);
        }
        out.add(piece.toString());
        return out;
    }

    /**
     * Columns {@code from} to {@code to} of a drawn row, exactly {@code to - from} wide: a wide
     * character cut by either edge becomes spaces, so splicing an overlay never shifts the row.
     */
    static AttributedString slice(AttributedString row, int from, int to) {
        AttributedStringBuilder sb = new AttributedStringBuilder();
        int col = 0;
        for (int i = 0; i < row.length(); ) {
            int cp = Character.codePointAt(row, i);
            int w = columns(cp);
            AttributedStyle style = row.styleAt(i);
            if (col >= from && col + w <= to) {
                sb.style(style).appendCodePoint(cp);
            } else if (col < to && col + w > from) {
                for (int c = Math.max(col, from); c < Math.min(col + w, to); c++) {
                    sb.style(style).append(' ');
                }
            }
            col += w;
            i += Character.charCount(cp);
        }
        for (; col < to; col++) {
            if (col >= from) {
                sb.style(AttributedStyle.DEFAULT).append(' ');
            }
        }
        return sb.toAttributedString();
    }

    /** An empty row of {@code width} columns. */
    static AttributedString blank(int width) {
        return new Line(width).build();
    }
}
