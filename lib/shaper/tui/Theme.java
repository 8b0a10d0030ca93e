package shaper.tui;

import java.util.HashMap;
import java.util.Map;

import org.jline.utils.AttributedStyle;
import org.jline.utils.Colors;

import shaper.breaker.BreakerState;

/**
 * Every colour and text style of the dashboard, and nothing else. Renderers ask a theme for a style
 * by meaning ("ok", "queue bar at 55%"), so a palette change happens here only. There are two
 * palettes of one GitHub-like design, {@link #DARK} and {@link #LIGHT}; the
 * dashboard picks the one that suits the terminal's background ({@link #forBackground}).
 *
 * <p>Colours go out as 24-bit RGB when the terminal says it takes them ({@code COLORTERM=truecolor}
 * or {@code 24bit}); otherwise each palette colour is mapped once, here, to its nearest of the
 * xterm 256. Left to JLine, that mapping would run for every style change of every frame (a
 * nearest-colour search over 256 entries each time), which measured as most of the dashboard's CPU.
 * Immutable.
 */
public final class Theme {
    /**
     * One palette.
     *
     * @param onAccent    text on the accent fill (active tab and chip)
     * @param onSelection text on the selection fill (the cursor row)
     * @param orange      4xx statuses and the half-open breaker
     */
    record Palette(int background, int surface, int panel, int text, int textDim, int muted, int accent, int selection,
                   int onAccent, int onSelection, int ok, int warn, int err, int orange, int separator) {
        int[] all() {
            return new int[]{background, surface, panel, text, textDim, muted, accent, selection, onAccent, onSelection, ok, warn,
                    err, orange, separator};
        }
    }

    /** The dark palette: near-black surfaces, one blue accent, green, amber, red and orange for states. */
    static final Palette DARK = new Palette(0x0D1117, 0x161B22, 0x21262D, 0xE6EDF3, 0x8B949E, 0x6E7681, 0x58A6FF, 0x388BFD,
            0x0D1117, 0xE6EDF3, 0x3FB950, 0xD29922, 0xF85149, 0xF0883E, 0x30363D);
    /** The light palette: the dark one's counterparts on white, with the accent darkened to {@code #0550AE} to read on it. */
    static final Palette LIGHT = new Palette(0xFFFFFF, 0xF6F8FA, 0xEAEEF2, 0x1F2328, 0x59636E, 0x6E7781, 0x0550AE, 0x0969DA,
            0xFFFFFF, 0xFFFFFF, 0x1A7F37, 0x9A6700, 0xCF222E, 0xBC4C00, 0xD0D7DE);

    private final Palette p;
    private final boolean trueColor;
    private final Map<Integer, Integer> indexed;
    private final boolean light;

    private Theme(Palette p, boolean light, boolean trueColor) {
        this.p = p;
        this.light = light;
        this.trueColor = trueColor;
        this.indexed = trueColor ? Map.of() : indexed(p.all());
    }

    /** The dark theme, coloured as {@code COLORTERM} allows. */
    static Theme dark() {
        return new Theme(DARK, false, trueColor(System.getenv("COLORTERM")));
    }

    /** The light theme, coloured as {@code COLORTERM} allows. */
    static Theme light() {
        return new Theme(LIGHT, true, trueColor(System.getenv("COLORTERM")));
    }

    /** Before the terminal says its background: light when {@code COLORFGBG} names a light one, else dark. */
    static Theme initial(String colorFgBg) {
        return TerminalReplies.lightFromColorFgBg(colorFgBg).orElse(false) ? light() : dark();
    }

    /** The theme for a terminal whose background is {@code rgb}: light above mid luminance, dark otherwise. */
    static Theme forBackground(int rgb) {
        return isLight(rgb) ? light() : dark();
    }

    /** Whether this is the light theme. */
    boolean isLight() {
        return light;
    }

    /** Relative luminance (sRGB weights, ITU-R BT.709) above one half. */
    static boolean isLight(int rgb) {
        double r = ((rgb >> 16) & 0xff) / 255.0;
        double g = ((rgb >> 8) & 0xff) / 255.0;
        double b = (rgb & 0xff) / 255.0;
        return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5;
    }

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

    private AttributedStyle fg(int rgb) {
        return trueColor ? AttributedStyle.DEFAULT.foregroundRgb(rgb) : AttributedStyle.DEFAULT.foreground(indexed.get(rgb));
    }

    private AttributedStyle on(AttributedStyle s, int rgb) {
        return trueColor ? s.backgroundRgb(rgb) : s.background(indexed.get(rgb));
    }

    public AttributedStyle text() {
        return fg(p.text());
    }

    public AttributedStyle dim() {
        return fg(p.textDim());
    }

    public AttributedStyle muted() {
        return fg(p.muted());
    }

    public AttributedStyle accent() {
        return fg(p.accent());
    }

    public AttributedStyle title() {
        return fg(p.text()).bold();
    }

    public AttributedStyle ok() {
        return fg(p.ok());
    }

    public AttributedStyle warn() {
        return fg(p.warn());
    }

    public AttributedStyle error() {
        return fg(p.err());
    }

    public AttributedStyle separator() {
        return fg(p.separator());
    }

    /** The header row's background. */
    public AttributedStyle header() {
        return on(fg(p.text()), p.surface());
    }

    /** The active tab and the active provider chip share one fill. */
    public AttributedStyle activeFill() {
        return on(fg(p.onAccent()), p.accent()).bold();
    }

    /** An inactive tab or chip. */
    public AttributedStyle inactiveFill() {
        return on(fg(p.textDim()), p.panel());
    }

    /** The cursor row of a list. */
    public AttributedStyle selection() {
        return on(fg(p.onSelection()), p.selection());
    }

    /** Overlays (help, detail, confirmation) sit on the panel colour. */
    public AttributedStyle overlay() {
        return on(fg(p.text()), p.panel());
    }

    public AttributedStyle overlayTitle() {
        return on(fg(p.accent()), p.panel()).bold();
    }

    /** A toast: its kind's colour on the panel. */
    public AttributedStyle toast(Toasts.Kind kind) {
        int colour = switch (kind) {
            case OK -> p.ok();
            case INFO -> p.accent();
            case WARN -> p.orange();
            case ERROR -> p.err();
        };
        return on(fg(colour), p.panel()).bold();
    }

    public AttributedStyle scrollTrack() {
        return fg(p.separator());
    }

    public AttributedStyle scrollThumb() {
        return fg(p.textDim());
    }

    /** A status code by class: 2xx green, 3xx accent, 4xx orange, 5xx red, none muted. */
    public AttributedStyle status(int status) {
        if (status >= 500) {
            return fg(p.err());
        }
        if (status >= 400) {
            return fg(p.orange());
        }
        if (status >= 300) {
            return fg(p.accent());
        }
        if (status >= 200) {
            return fg(p.ok());
        }
        return fg(p.muted());
    }

    /** Concurrency gauges: green up to 59 %, amber 60-89 %, red from 90 %. */
    public AttributedStyle gauge(double fraction) {
        if (fraction >= 0.90) {
            return fg(p.err());
        }
        return fraction >= 0.60 ? fg(p.warn()) : fg(p.ok());
    }

    /** Queue bars: green when empty, amber below half, orange below 90 %, red from 90 % of capacity. */
    public AttributedStyle queue(double fraction) {
        if (fraction <= 0) {
            return fg(p.ok());
        }
        if (fraction < 0.50) {
            return fg(p.warn());
        }
        return fraction < 0.90 ? fg(p.orange()) : fg(p.err());
    }

    /** Breaker states: closed green, half-open orange, open red. */
    public AttributedStyle breaker(BreakerState state) {
        return switch (state) {
            case OPEN -> fg(p.err());
            case HALF_OPEN -> fg(p.orange());
            case CLOSED -> fg(p.ok());
        };
    }

    /** Waterfall segments of the Network tab. */
    public AttributedStyle waterfallQueue() {
        return fg(p.muted());
    }

    public AttributedStyle waterfallWait() {
        return fg(p.warn());
    }

    public AttributedStyle waterfallDownload() {
        return fg(p.accent());
    }

    /** Gauge cells of slots held after their exchange (failure hold, phantom penalty, cancel cooldown). */
    public AttributedStyle heldSlot() {
        return fg(p.warn());
    }

    /** Gauge cells of slots in their release cooldown. */
    public AttributedStyle coolingSlot() {
        return fg(p.accent());
    }
}
