package shaper.tui;

import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

import shaper.limit.LimiterSnapshot;

/**
 * Tab 5: the concurrency gauge (held and cooling slots drawn with their reason), the oldest queued wait,
 * the queue depth bar (full at four times the concurrency), each limiter with "N waiting (oldest X)", its
 * held and cooling slots and the limit in force, and the in-flight list.
 */
final class ConcurrencyView {
    private ConcurrencyView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        ProviderFrame p = c.provider();
        int w = c.width();
        List<AttributedString> out = new ArrayList<>();
        out.add(Gauges.concurrency(theme, "Concurrency", p, w));
        out.add(new Line(w).add(" ", theme.text()).cell("Oldest queued", Gauges.LABEL, theme.dim())
                .add(p.queued() == 0 ? "-" : Format.duration(p.oldestQueued()), theme.text()).build());
        int max = Math.max(1, p.capacity() * 4);
        out.add(Gauges.queue(theme, "Queue Depth", p.queued(), max, p.oldestQueued(), w));
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Limiters", theme.title()).build());
        for (LimiterSnapshot l : p.routes()) {
            out.add(limiter(c, routeName(l, p), l));
        }
        out.add(limiter(c, "default pool", p.pool()));
        if (p.global() != null) {
            out.add(limiter(c, "global", p.global()));
        }
        if (p.gate() != null) {
            out.add(limiter(c, "large-request gate", p.gate()));
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

    /**
     * "default pool  0/2 active   4 waiting (oldest 1.2s)   1 held (failure hold)   1 cooling", then the
     * limit in force when it is not the configured one: learned ({@code -adaptive-concurrency}, with its
     * last move) or lowered by headroom.
     */
    private static AttributedString limiter(Context c, String name, LimiterSnapshot l) {
        Theme theme = c.theme();
        SlotDetail slots = c.provider().slots();
        int held = slots.held(l.name());
        int serving = l.inUse() - held;
        String waiting = l.waiters() + " waiting" + (l.waiters() > 0 ? " (oldest " + Format.duration(l.oldestWaiterAge()) + ")" : "");
        Line line = new Line(c.width()).add("   ", theme.text()).cell(name, 28, theme.text())
                .cellRight(serving + "/" + l.limit(), 7, theme.gauge(serving / (double) l.limit())).add(" active   ", theme.dim())
                .add(waiting, l.waiters() > 0 ? theme.warn() : theme.dim());
        if (held > 0) {
            line.add("   " + held + " held" + slots.reasons(), theme.heldSlot());
        }
        if (l.cooling() > 0) {
            line.add("   " + l.cooling() + " cooling", theme.coolingSlot());
        }
        if (slots.adaptive()) {
            line.add("   limit " + l.effectiveLimit() + " (adaptive " + slots.minimum() + ".." + l.limit() + ")", theme.accent());
        } else if (l.effectiveLimit() < l.limit()) {
            line.add("   headroom withholds " + (l.limit() - l.effectiveLimit()), theme.dim());
        }
        SlotDetail.LimitMove move = slots.moves().get(l.name());
        if (move != null) {
            line.add("   " + (move.to() < move.from() ? "↓" : "↑") + " from " + move.from() + " "
                    + Format.duration(java.time.Duration.between(move.at(), c.frame().at())) + " ago", theme.dim());
        }
        return line.build();
    }
}
