package shaper.tui;

import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * The header: row 0 carries the identity (the ⚡ brand, the listen address, and for a single
 * provider its upstream and load); with several providers, one chip per provider follows, the
 * active one filled like the active tab. A first chip that does not fit beside the identity at its
 * natural width starts the next row instead, so row 0 never ends in a truncated chip; chips wrap
 * over at most {@code maxChipRows} further rows, and when even that is not enough the chips are
 * left out (Tab still switches) and row 0 names the active provider.
 */
final class Header {
    /** The rows drawn and where each chip landed. */
    record Drawn(List<AttributedString> rows, List<Span> chips) {
    }

    private Header() {
    }

    static Drawn render(Theme theme, Frame f, int active, int width, int maxChipRows) {
        List<ProviderFrame> ps = f.providers();
        if (ps.size() == 1) {
            ProviderFrame p = ps.getFirst();
            String upstream = "→ " + p.upstream() + (p.prefix().isEmpty() ? "" : " at " + p.prefix()) + "   ";
            String load = load(p);
            // narrow terminals drop the upstream, then the listen address, so the load stays in view
            Line l = identity(theme, f, width);
            if (l.left() >= Line.columns(upstream + load)) {
                l.add(upstream, theme.header());
            } else if (l.left() < Line.columns(load)) {
                l = brand(theme, width);
            }
            l.add(load, theme.header());
            return new Drawn(List.of(l.build(theme.header())), List.of());
        }
        List<String> labels = new ArrayList<>();
        for (ProviderFrame p : ps) {
            labels.add(chipText(p));
        }
        Drawn chips = place(theme, f, labels, active, width, maxChipRows);
        if (chips != null) {
            return chips;
        }
        String which = "provider " + (active + 1) + "/" + ps.size() + ": ";
        Line l = identity(theme, f, width);
        if (l.left() < Line.columns(which + ps.get(active).name()) + 4) {
            l = brand(theme, width);
        }
        l.add(which, theme.header()).add(" " + ps.get(active).name() + " ", theme.activeFill()).add("  ", theme.header())
                .add(load(ps.get(active)), theme.header());
        return new Drawn(List.of(l.build(theme.header())), List.of());
    }

    private static Line identity(Theme theme, Frame f, int width) {
        return brand(theme, width).add(" " + f.listen() + "  ", theme.header());
    }

    private static Line brand(Theme theme, int width) {
        return new Line(width).add(" ⚡ shaper ", theme.header().bold()).add(" ", theme.header());
    }

    private static String load(ProviderFrame p) {
        return "active " + p.active() + "/" + p.capacity() + "  queued " + p.queued();
    }

    /** A chip: the provider's name and its load, e.g. " anthropic 2/4 +3 ". */
    private static String chipText(ProviderFrame p) {
        return " " + p.name() + " " + p.active() + "/" + p.capacity() + (p.queued() > 0 ? " +" + p.queued() : "") + " ";
    }

    /** Lays the chips out, or returns null when they need more rows than allowed. */
    private static Drawn place(Theme theme, Frame f, List<String> labels, int active, int width, int maxChipRows) {
        List<Line> rows = new ArrayList<>();
        List<Span> spans = new ArrayList<>();
        Line row0 = identity(theme, f, width);
        rows.add(row0);
        // row 0 takes chips only when the first fits there whole (with its separating space)
        Line current = Line.columns(labels.getFirst()) + 1 <= row0.left() ? row0 : null;
        int chipRows = 0;
        for (int i = 0; i < labels.size(); i++) {
            String label = labels.get(i);
            int w = Line.columns(label);
            if (w + 1 > width) {
                return null;
            }
            if (current == null || w + 1 > current.left()) {
                if (++chipRows > maxChipRows) {
                    return null;
                }
                current = new Line(width).add(" ", theme.header());
                rows.add(current);
            } else {
                current.add(" ", theme.header());
            }
            int from = current.used();
            AttributedStyle style = i == active ? theme.activeFill() : theme.inactiveFill();
            current.add(label, style);
            spans.add(new Span(rows.size() - 1, from, current.used(), i));
        }
        List<AttributedString> built = rows.stream().map(l -> l.build(theme.header())).toList();
        return new Drawn(built, spans);
    }
}
