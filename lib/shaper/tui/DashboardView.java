package shaper.tui;

import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

import shaper.breaker.BreakerSnapshot;
import shaper.breaker.BreakerState;
import shaper.observe.ExchangeCounters;

/**
 * Tab 1: throughput sparkline, concurrency and queue gauges, status distribution, the in-flight
 * list, the summary of outcomes and the breaker. Scrolls as a whole.
 */
final class DashboardView {
    private DashboardView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        ProviderFrame p = c.provider();
        int w = c.width();
        List<AttributedString> out = new ArrayList<>();
        double rate = c.throughput().perSecond(p.name(), c.frame().at());
        TokenFrame t = p.tokens();
        Line top = new Line(w).add(" Throughput (10s)  ", theme.title()).add(Format.rate(rate) + " req/s", theme.accent());
        String perMinute = "   " + Format.count(t.perMinute()) + " tok/min";
        String split = " (in " + Format.count(t.inPerMinute()) + " · out " + Format.count(t.outPerMinute()) + ")";
        if (top.left() >= Line.columns(perMinute)) { // a narrow terminal keeps req/s whole rather than a clipped tok/min
            top.add(perMinute, theme.accent()).add(split, theme.dim());
        }
        out.add(top.build());
        String spark = Bars.sparkline(c.throughput().slots(p.name(), c.frame().at()), Math.min(Throughput.SLOTS, w - 2));
        out.add(new Line(w).add(" ", theme.text()).add(spark, theme.accent()).build());
        out.add(Line.blank(w));
        out.add(Gauges.concurrency(theme, "Concurrency", p, w));
        out.add(Gauges.queue(theme, "Queue Depth", p.queued(), Math.max(1, p.capacity() * 4), p.oldestQueued(), w));
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Status Distribution", theme.title()).build());
        out.add(statusLine(theme, p.counters(), w));
        out.add(Line.blank(w));
        out.add(new Line(w).add(" In-Flight Requests (" + p.inFlight().size() + ")", theme.title()).build());
        if (p.inFlight().isEmpty()) {
            out.add(new Line(w).add("   none", theme.muted()).build());
        }
        for (InFlightRow r : p.inFlight()) {
            out.add(inFlight(theme, r, w));
        }
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Summary", theme.title()).build());
        ExchangeCounters.Snapshot s = p.counters();
        out.add(pair(theme, "Clean proxied", s.cleanProxied(), "Clean passthrough", s.cleanPassthrough(), w));
        out.add(pair(theme, "Aborted", s.aborted(), "Failed", s.failed(), w));
        out.add(pair(theme, "Circuit rejected", s.circuitRejected(), "Queue rejected", s.queueRejected(), w));
        out.add(pair(theme, "Queue timeouts", s.queueTimeouts(), "Client left", s.clientLeft(), w));
        if (p.breaker() != null) {
            out.add(Line.blank(w));
            out.add(breaker(theme, p.breaker(), w));
        }
        return Body.scrolling(out);
    }

    private static AttributedString statusLine(Theme theme, ExchangeCounters.Snapshot s, int w) {
        Line l = new Line(w).add("  ", theme.text());
        for (int h = 1; h <= 5; h++) {
            l.add(" " + h + "xx ", theme.dim()).add(String.valueOf(s.status(h)), theme.status(h * 100)).add("  ", theme.text());
        }
        return l.build();
    }

    /**
     * "○ queued  limited  [class]  [client]  GET  2.2s  /path  waiting for tokens (input)": the class when classes are
     * declared, the client when it has an identity; an exchange in a retry backoff reads "↻ retry" and says which
     * attempt comes when, and why.
     */
    static AttributedString inFlight(Theme theme, InFlightRow r, int w) {
        boolean retrying = !r.retry().isEmpty();
        Line l = new Line(w).add("   ", theme.text())
                .cell(r.queued() ? "○ queued" : retrying ? "↻ retry" : "● active", 10, r.queued() || retrying ? theme.warn() : theme.ok())
                .cell(r.limited() ? "limited" : "pass", 9, theme.dim());
        if (!r.priorityClass().isEmpty()) {
            l.cell(r.priorityClass(), 13, theme.accent());
        }
        if (!r.client().equals("anonymous")) {
            l.cell(r.client(), 16, theme.accent());
        }
        l.cell(r.method(), 8, theme.text())
                .cellRight(Format.duration(r.age()), 8, theme.accent()).add("  ", theme.text()).add(r.path(), theme.text());
        if (r.queued() && !r.waitingFor().isEmpty()) {
            l.add("  " + r.waitingFor(), theme.warn());
        }
        if (retrying) {
            l.add("  " + r.retry(), theme.warn());
        }
        return l.build();
    }

    private static AttributedString pair(Theme theme, String a, long av, String b, long bv, int w) {
        return new Line(w).add("   ", theme.text()).cell(a, 18, theme.dim()).cellRight(String.valueOf(av), 8, theme.text())
                .add("     ", theme.text()).cell(b, 19, theme.dim()).cellRight(String.valueOf(bv), 8, theme.text()).build();
    }

    private static AttributedString breaker(Theme theme, BreakerSnapshot b, int w) {
        String state = switch (b.state()) {
            case CLOSED -> "closed";
            case HALF_OPEN -> "half-open";
            case OPEN -> "open";
        };
        Line l = new Line(w).add(" Circuit Breaker  ", theme.title()).add(state, theme.breaker(b.state()))
                .add("   failures " + b.failuresInWindow() + " in window, " + b.consecutiveFailures() + " consecutive", theme.dim());
        if (b.state() == BreakerState.OPEN) {
            l.add("   next probe in " + Format.duration(b.nextProbeIn()), theme.dim());
        }
        if (b.state() != BreakerState.CLOSED && !b.penalty().isZero()) {
            l.add("   penalty " + Format.duration(b.penalty()), theme.dim());
        }
        return l.build();
    }
}
