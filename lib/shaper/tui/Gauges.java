package shaper.tui;

import java.time.Duration;

import org.jline.utils.AttributedString;

/** The labelled bars the Dashboard and Concurrency tabs share: concurrency and queue depth. */
final class Gauges {
    /** Label column width. */
    static final int LABEL = 15;

    private Gauges() {
    }

    /** "Concurrency  ███░░░  2/4 active (50%)", coloured by load. */
    static AttributedString concurrency(Theme theme, String label, int active, int capacity, int width) {
        double f = capacity <= 0 ? 0 : active / (double) capacity;
        String note = active + "/" + capacity + " active (" + Math.round(f * 100) + "%)";
        return bar(theme, label, f, theme.gauge(f), note, width);
    }

    /** "Queue Depth  █░░░  3 queued (oldest 1.2s)"; the bar is full at {@code max} waiters. */
    static AttributedString queue(Theme theme, String label, int queued, int max, Duration oldest, int width) {
        double f = max <= 0 ? 0 : queued / (double) max;
        String note = queued + " queued" + (queued > 0 ? " (oldest " + Format.duration(oldest) + ")" : "");
        return bar(theme, label, f, theme.queue(f), note, width);
    }

    private static AttributedString bar(Theme theme, String label, double fraction, org.jline.utils.AttributedStyle style, String note, int width) {
        int cells = Math.max(4, Math.min(40, width - LABEL - Line.columns(note) - 5));
        String filled = Bars.filled(fraction, cells);
        return new Line(width).add(" ", theme.text()).cell(label, LABEL, theme.dim())
                .add(filled, style).add(Bars.rest(filled, cells), theme.separator())
                .add("  " + note, theme.text()).build();
    }
}
