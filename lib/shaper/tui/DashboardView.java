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
        ProviderFrame p = c.provider();
        int w = c.width();
        List<AttributedString> out = new ArrayList<>();
        double rate = c.throughput().perSecond(p.name(), c.frame().at());
        out.add(new Line(w).add(" Throughput (10s)  ", Theme.title()).add(Format.rate(rate) + " req/s", Theme.accent()).build());
        String spark = Bars.sparkline(c.throughput().slots(p.name(), c.frame().at()), Math.min(Throughput.SLOTS, w - 2));
        out.add(new Line(w).add(" ", Theme.text()).add(spark, Theme.accent()).build());
        out.add(Line.blank(w));
        out.add(Gauges.concurrency("Concurrency", p.active(), p.capacity(), w));
        out.add(Gauges.queue("Queue Depth", p.queued(), Math.max(1, p.capacity() * 4), p.oldestQueued(), w));
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Status Distribution", Theme.title()).build());
        out.add(statusLine(p.counters(), w));
        out.add(Line.blank(w));
        out.add(new Line(w).add(" In-Flight Requests (" + p.inFlight().size() + ")", Theme.title()).build());
        if (p.inFlight().isEmpty()) {
            out.add(new Line(w).add("   none", Theme.muted()).build());
        }
        for (InFlightRow r : p.inFlight()) {
            out.add(inFlight(r, w));
        }
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Summary", Theme.title()).build());
        ExchangeCounters.Snapshot s = p.counters();
        out.add(pair("Clean proxied", s.cleanProxied(), "Clean passthrough", s.cleanPassthrough(), w));
        out.add(pair("Aborted", s.aborted(), "Failed", s.failed(), w));
        out.add(pair("Circuit rejected", s.circuitRejected(), "Queue rejected", s.queueRejected(), w));
        out.add(pair("Queue timeouts", s.queueTimeouts(), "Client left", s.clientLeft(), w));
        if (p.breaker() != null) {
            out.add(Line.blank(w));
            out.add(breaker(p.breaker(), w));
        }
        return Body.scrolling(out);
    }

    private static AttributedString statusLine(ExchangeCounters.Snapshot s, int w) {
        Line l = new Line(w).add("  ", Theme.text());
        for (int h = 1; h <= 5; h++) {
            l.add(" " + h + "xx ", Theme.dim()).add(String.valueOf(s.status(h)), Theme.status(h * 100)).add("  ", Theme.text());
        }
        return l.build();
    }

    static AttributedString inFlight(InFlightRow r, int w) {
        return new Line(w).add("   ", Theme.text())
                .cell(r.queued() ? "○ queued" : "● active", 10, r.queued() ? Theme.warn() : Theme.ok())
                .cell(r.limited() ? "limited" : "pass", 9, Theme.dim())
                .cell(r.method(), 8, Theme.text())
                .cellRight(Format.duration(r.age()), 8, Theme.accent()).add("  ", Theme.text())
                .add(r.path(), Theme.text()).build();
    }

    private static AttributedString pair(String a, long av, String b, long bv, int w) {
        return new Line(w).add("   ", Theme.text()).cell(a, 18, Theme.dim()).cellRight(String.valueOf(av), 8, Theme.text())
                .add("     ", Theme.text()).cell(b, 19, Theme.dim()).cellRight(String.valueOf(bv), 8, Theme.text()).build();
    }

    private static AttributedString breaker(BreakerSnapshot b, int w) {
        String state = switch (b.state()) {
            case CLOSED -> "closed";
            case HALF_OPEN -> "half-open";
            case OPEN -> "open";
        };
        Line l = new Line(w).add(" Circuit Breaker  ", Theme.title()).add(state, Theme.breaker(b.state()))
                .add("   failures " + b.failuresInWindow() + " in window, " + b.consecutiveFailures() + " consecutive", Theme.dim());
        if (b.state() == BreakerState.OPEN) {
            l.add("   next probe in " + Format.duration(b.nextProbeIn()), Theme.dim());
        }
        if (b.state() != BreakerState.CLOSED && !b.penalty().isZero()) {
            l.add("   penalty " + Format.duration(b.penalty()), Theme.dim());
        }
        return l.build();
    }
}
