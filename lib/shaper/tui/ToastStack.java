package shaper.tui;

import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

/**
 * Draws the showing toasts over the bottom of the content, right-aligned, newest lowest, one row
 * each: a kind mark and the text, clipped to the terminal's width. Overlays (help, detail) are drawn
 * after, so a toast never hides the box a person is reading.
 */
final class ToastStack {
    private ToastStack() {
    }

    /**
     * @param top    first content row
     * @param bottom the row below the last content row (the footer)
     */
    static List<AttributedString> apply(Theme theme, List<AttributedString> rows, List<Toasts.Toast> toasts, int top, int bottom,
                                        int width) {
        if (toasts.isEmpty()) {
            return rows;
        }
        List<AttributedString> out = new ArrayList<>(rows);
        int room = Math.min(toasts.size(), bottom - top);
        List<Toasts.Toast> shown = toasts.subList(toasts.size() - room, toasts.size());
        for (int i = 0; i < shown.size(); i++) {
            Toasts.Toast t = shown.get(i);
            String text = " " + mark(t.kind()) + " " + t.text() + " ";
            int w = Math.min(width - 2, Line.columns(text));
            if (w <= 0) {
                continue;
            }
            AttributedString toast = new Line(w).add(Line.fit(text, w), theme.toast(t.kind())).build(theme.toast(t.kind()));
            int row = bottom - shown.size() + i;
            int left = width - 1 - w;
            AttributedString under = out.get(row);
            out.set(row, AttributedString.join(AttributedString.EMPTY, Line.slice(under, 0, left), toast, Line.slice(under, left + w, width)));
        }
        return out;
    }

    private static String mark(Toasts.Kind kind) {
        return switch (kind) {
            case OK -> "✓";
            case INFO -> "•";
            case WARN -> "!";
            case ERROR -> "✗";
        };
    }
}
