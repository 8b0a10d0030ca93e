package shaper.tui;

import java.time.Duration;

import org.jline.utils.AttributedString;

/** The labelled bars the Dashboard and Concurrency tabs share: concurrency and queue depth. */
final class Gauges {
    /** Label column width. */
    static final int LABEL = 15;

    private Gauges() {
    }

    /**
     * "Concurrency  ██▓▒░░  2/6 active (33%) · 1 held (failure hold) · 1 cooling (release cooldown)": active
     * slots coloured by load, then held slots {@code ▓} and cooling slots {@code ▒}, so a queue behind
     * a limit that looks unused is explained.
     */
    static AttributedString concurrency(Theme theme, String label, ProviderFrame p, int width) {
        int capacity = p.capacity();
        double f = capacity <= 0 ? 0 : p.active() / (double) capacity;
        String note = p.active() + "/" + capacity + " active (" + Math.round(f * 100) + "%)"
                + (p.held() > 0 ? " · " + p.held() + " held" + p.slots().reasons() : "")
                + (p.cooling() > 0 ? " · " + p.cooling() + " cooling (release cooldown)" : "");
        int cells = cells(note, width);
        String filled = Bars.filled(f, cells);
        int held = part(p.held(), capacity, cells, cells - filled.length());
        int cooling = part(p.cooling(), capacity, cells, cells - filled.length() - held);
        String used = filled + "▓".repeat(held) + "▒".repeat(cooling);
        return new Line(width).add(" ", theme.text()).cell(label, LABEL, theme.dim())
                .add(filled, theme.gauge(f)).add("▓".repeat(held), theme.heldSlot()).add("▒".repeat(cooling), theme.coolingSlot())
                .add(Bars.rest(used, cells), theme.separator()).add("  " + note, theme.text()).build();
    }

    /** Whole cells of a {@code cells}-wide gauge for {@code n} of {@code capacity} slots: at least one when {@code n > 0}, at most {@code room}. */
    private static int part(int n, int capacity, int cells, int room) {
        if (n <= 0 || room <= 0) {
            return 0;
        }
        return Math.min(room, Math.max(1, (int) Math.round(n * cells / (double) Math.max(1, capacity))));
    }

    /** "Queue Depth  █░░░  3 queued (oldest 1.2s)"; the bar is full at {@code max} waiters. */
    static AttributedString queue(Theme theme, String label, int queued, int max, Duration oldest, int width) {
        double f = max <= 0 ? 0 : queued / (double) max;
        String note = queued + " queued" + (queued > 0 ? " (oldest " + Format.duration(oldest) + ")" : "");
        return bar(theme, label, f, theme.queue(f), note, width);
    }

    private static int cells(String note, int width) {
        return Math.max(4, Math.min(40, width - LABEL - Line.columns(note) - 5));
    }

    private static AttributedString bar(Theme theme, String label, double fraction, org.jline.utils.AttributedStyle style, String note, int width) {
        int cells = cells(note, width);
        String filled = Bars.filled(fraction, cells);
        return new Line(width).add(" ", theme.text()).cell(label, LABEL, theme.dim())
                .add(filled, style).add(Bars.rest(filled, cells), theme.separator())
                .add("  " + note, theme.text()).build();
    }
}
