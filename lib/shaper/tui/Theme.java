package shaper.tui;

import java.util.HashMap;
import java.util.Map;

import org.jline.utils.AttributedStyle;
import org.jline.utils.Colors;

import shaper.breaker.BreakerState;

/**
 * Every colour and text style of the dashboard, and nothing else: the palette of the original tool's
 * design (a dark GitHub-like scheme). Renderers ask this class for a style by meaning ("ok", "queue
 * bar at 55%") so a palette change happens here only.
 *
 * <p>Colours go out as 24-bit RGB when the terminal says it takes them ({@code COLORTERM=truecolor}
 * or {@code 24bit}); otherwise each palette colour is mapped once, here, to its nearest of the
 * xterm 256. Left to JLine, that mapping would run for every style change of every frame (a
 * nearest-colour search over 256 entries each time), which measured as most of the dashboard's CPU.
 */
public final class Theme {
    static final int BACKGROUND = 0x0D1117;
    static final int SURFACE = 0x161B22;
    static final int PANEL = 0x21262D;
    static final int TEXT = 0xE6EDF3;
    static final int TEXT_DIM = 0x8B949E;
    static final int MUTED = 0x6E7681;
    static final int ACCENT = 0x58A6FF;
    static final int SELECTION = 0x388BFD;
    static final int OK = 0x3FB950;
    static final int WARN = 0xD29922;
    static final int ERR = 0xF85149;
    /** 4xx statuses and the half-open breaker. */
    static final int ORANGE = 0xF0883E;
    static final int SEPARATOR = 0x30363D;

    private Theme() {
    }

    private static final boolean TRUE_COLOR = trueColor(System.getenv("COLORTERM"));
    private static final Map<Integer, Integer> INDEXED = indexed(BACKGROUND, SURFACE, PANEL, TEXT, TEXT_DIM, MUTED, ACCENT,
            SELECTION, OK, WARN, ERR, ORANGE, SEPARATOR);

    static boolean trueColor(String colorterm) {
        return "truecolor".equalsIgnoreCase(colorterm) || "24bit".equalsIgnoreCase(colorterm);
    }

    private static Map<Integer, Integer> indexed(int... palette) {
        Map<Integer, Integer> m = new HashMap<>();
        for (int rgb : palette) {
            m.put(rgb, Colors.roundRgbColor((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff, 256));
        }
        return Map.copyOf(m);
    }

    private static AttributedStyle fg(int rgb) {
        return TRUE_COLOR ? AttributedStyle.DEFAULT.foregroundRgb(rgb) : AttributedStyle.DEFAULT.foreground(INDEXED.get(rgb));
    }

    private static AttributedStyle on(AttributedStyle s, int rgb) {
        return TRUE_COLOR ? s.backgroundRgb(rgb) : s.background(INDEXED.get(rgb));
    }

    public static AttributedStyle text() {
        return fg(TEXT);
    }

    public static AttributedStyle dim() {
        return fg(TEXT_DIM);
    }

    public static AttributedStyle muted() {
        return fg(MUTED);
    }

    public static AttributedStyle accent() {
        return fg(ACCENT);
    }

    public static AttributedStyle title() {
        return fg(TEXT).bold();
    }

    public static AttributedStyle ok() {
        return fg(OK);
    }

    public static AttributedStyle warn() {
        return fg(WARN);
    }

    public static AttributedStyle error() {
        return fg(ERR);
    }

    public static AttributedStyle separator() {
        return fg(SEPARATOR);
    }

    /** The header row's background. */
    public static AttributedStyle header() {
        return on(fg(TEXT), SURFACE);
    }

    /** The active tab and the active provider chip share one fill. */
    public static AttributedStyle activeFill() {
        return on(fg(BACKGROUND), ACCENT).bold();
    }

    /** An inactive tab or chip. */
    public static AttributedStyle inactiveFill() {
        return on(fg(TEXT_DIM), PANEL);
    }

    /** The cursor row of a list. */
    public static AttributedStyle selection() {
        return on(fg(TEXT), SELECTION);
    }

    /** Overlays (help, detail, confirmation) sit on the panel colour. */
    public static AttributedStyle overlay() {
        return on(fg(TEXT), PANEL);
    }

    public static AttributedStyle overlayTitle() {
        return on(fg(ACCENT), PANEL).bold();
    }

    public static AttributedStyle scrollTrack() {
        return fg(SEPARATOR);
    }

    public static AttributedStyle scrollThumb() {
        return fg(TEXT_DIM);
    }

    /** A status code by class: 2xx green, 3xx accent, 4xx orange, 5xx red, none muted. */
    public static AttributedStyle status(int status) {
        if (status >= 500) {
            return fg(ERR);
        }
        if (status >= 400) {
            return fg(ORANGE);
        }
        if (status >= 300) {
            return fg(ACCENT);
        }
        if (status >= 200) {
            return fg(OK);
        }
        return fg(MUTED);
    }

    /** Concurrency gauges: green up to 59 %, amber 60-89 %, red from 90 %. */
    public static AttributedStyle gauge(double fraction) {
        if (fraction >= 0.90) {
            return fg(ERR);
        }
        return fraction >= 0.60 ? fg(WARN) : fg(OK);
    }

    /** Queue bars: green when empty, amber below half, orange below 90 %, red from 90 % of capacity. */
    public static AttributedStyle queue(double fraction) {
        if (fraction <= 0) {
            return fg(OK);
        }
        if (fraction < 0.50) {
            return fg(WARN);
        }
        return fraction < 0.90 ? fg(ORANGE) : fg(ERR);
    }

    /** Breaker states: closed green, half-open orange, open red. */
    public static AttributedStyle breaker(BreakerState state) {
        return switch (state) {
            case OPEN -> fg(ERR);
            case HALF_OPEN -> fg(ORANGE);
            case CLOSED -> fg(OK);
        };
    }

    /** Waterfall segments of the Network tab. */
    public static AttributedStyle waterfallQueue() {
        return fg(MUTED);
    }

    public static AttributedStyle waterfallWait() {
        return fg(WARN);
    }

    public static AttributedStyle waterfallDownload() {
        return fg(ACCENT);
    }
}
