package shaper.tui;

import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

import shaper.limit.LimiterSnapshot;

/**
 * Tab 5: the concurrency gauge, the oldest queued wait, the queue depth bar (full at four times the
 * concurrency), each limiter with "N waiting (oldest X)", and the in-flight list.
 */
final class ConcurrencyView {
    private ConcurrencyView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        ProviderFrame p = c.provider();
        int w = c.width();
        List<AttributedString> out = new ArrayList<>();
        out.add(Gauges.concurrency(theme, "Concurrency", p.active(), p.capacity(), w));
        out.add(new Line(w).add(" ", theme.text()).cell("Oldest queued", Gauges.LABEL, theme.dim())
                .add(p.queued() == 0 ? "-" : Format.duration(p.oldestQueued()), theme.text()).build());
        int max = Math.max(1, p.capacity() * 4);
        out.add(Gauges.queue(theme, "Queue Depth", p.queued(), max, p.oldestQueued(), w));
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Limiters", theme.title()).build());
        for (LimiterSnapshot l : p.routes()) {
            out.add(limiter(theme, routeName(l, p), l, w));
        }
        out.add(limiter(theme, "default pool", p.pool(), w));
        if (p.global() != null) {
            out.add(limiter(theme, "global", p.global(), w));
        }
        if (p.gate() != null) {
            out.add(limiter(theme, "large-request gate", p.gate(), w));
        }
        out.add(Line.blank(w));
        int limited = (int) p.inFlight().stream().filter(InFlightRow::limited).count();
        out.add(new Line(w).add(" In-Flight (" + p.inFlight().size() + ": " + limited + " limited, "
                + (p.inFlight().size() - limited) + " passthrough)", theme.title()).build());
        if (p.inFlight().isEmpty()) {
            out.add(new Line(w).add("   none", theme.muted()).build());
        }
        for (InFlightRow r : p.inFlight()) {
            out.add(DashboardView.inFlight(theme, r, w));
        }
        return Body.scrolling(out);
    }

    /** A route limiter's name without the provider prefix it is created with. */
    private static String routeName(LimiterSnapshot l, ProviderFrame p) {
        String n = l.name();
        return n.startsWith(p.name() + " ") ? n.substring(p.name().length() + 1) : n;
    }

    private static AttributedString limiter(Theme theme, String name, LimiterSnapshot l, int w) {
        String waiting = l.waiters() + " waiting" + (l.waiters() > 0 ? " (oldest " + Format.duration(l.oldestWaiterAge()) + ")" : "");
        Line line = new Line(w).add("   ", theme.text()).cell(name, 28, theme.text())
                .cellRight(l.inUse() + "/" + l.limit(), 7, theme.gauge(l.inUse() / (double) l.limit())).add(" active   ", theme.dim())
                .add(waiting, l.waiters() > 0 ? theme.warn() : theme.dim());
        if (l.effectiveLimit() < l.limit()) {
            line.add("   headroom withholds " + (l.limit() - l.effectiveLimit()), theme.dim());
        }
        return line.build();
    }
}
