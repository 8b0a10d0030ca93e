package shaper.tui;

import java.util.List;

/** Text bars: gauges filled in eighths of a cell, and a sparkline of block heights. */
final class Bars {
    private static final char[] EIGHTHS = {' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'};
    private static final char[] HEIGHTS = {'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'};
    static final char EMPTY = '░';

    private Bars() {
    }

    /** The filled part of a {@code cells}-wide gauge at {@code fraction} (clamped to 0..1). */
    static String filled(double fraction, int cells) {
        double f = Math.max(0, Math.min(1, fraction));
        int eighths = (int) Math.round(f * cells * 8);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < eighths / 8; i++) {
            sb.append('█');
        }
        if (eighths % 8 != 0) {
            sb.append(EIGHTHS[eighths % 8]);
        }
        return sb.toString();
    }

    /** The empty rest of a gauge whose filled part is {@code filled}. */
    static String rest(String filled, int cells) {
        return String.valueOf(EMPTY).repeat(Math.max(0, cells - filled.length()));
    }

    /**
     * The last {@code cells} values as block heights scaled to the largest of them; a zero is the
     * lowest block, so an idle proxy shows a flat line rather than nothing.
     */
    static String sparkline(List<Long> values, int cells) {
        int from = Math.max(0, values.size() - cells);
        long max = 1;
        for (int i = from; i < values.size(); i++) {
            max = Math.max(max, values.get(i));
        }
        StringBuilder sb = new StringBuilder();
        for (int i = values.size() - from; i < cells; i++) {
            sb.append(HEIGHTS[0]);
        }
        for (int i = from; i < values.size(); i++) {
            long v = values.get(i);
            int h = v <= 0 ? 0 : (int) Math.max(1, Math.round(v * (HEIGHTS.length - 1) / (double) max));
            sb.append(HEIGHTS[h]);
        }
        return sb.toString();
    }
}
