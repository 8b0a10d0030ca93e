package shaper.tui;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jline.utils.AttributedString;

import shaper.ratelimit.RateLimitKind;
import shaper.ratelimit.RateLimitReading;

/**
 * Tab 7: tokens per minute, usage per model since start or reset (requests, input, output, cache
 * reads and writes), the rate limits the upstream's headers stated last (limit, remaining and reset
 * per kind, a {@code retry-after} still running), and the pacing budget when admission is paced.
 */
final class TokensView {
    private static final int NUMBER = 7;

    private TokensView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        TokenFrame t = c.provider().tokens();
        int w = c.width();
        List<AttributedString> out = new ArrayList<>();
        out.add(new Line(w).add(" Tokens/min (60s)  ", theme.title()).add(Format.count(t.perMinute()), theme.accent())
                .add("   in " + Format.count(t.inPerMinute()) + " · out " + Format.count(t.outPerMinute()), theme.dim()).build());
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Models (since start or reset)", theme.title()).build());
        int model = Math.max(8, w - 1 - 5 - 4 * NUMBER - 2);
        out.add(new Line(w).add(" ", theme.dim()).cell("Model", model, theme.dim()).cellRight("Req", 5, theme.dim())
                .cellRight("In", NUMBER, theme.dim()).cellRight("Out", NUMBER, theme.dim()).cellRight("CacheRd", NUMBER + 1, theme.dim())
                .cellRight("CacheWr", NUMBER + 1, theme.dim()).build());
        for (ModelRow m : t.models()) {
            out.add(new Line(w).add(" ", theme.text()).cell(m.model(), model, theme.text())
                    .cellRight(String.valueOf(m.requests()), 5, theme.text()).cellRight(Format.count(m.input()), NUMBER, theme.text())
                    .cellRight(Format.count(m.output()), NUMBER, theme.text()).cellRight(Format.count(m.cacheRead()), NUMBER + 1, theme.dim())
                    .cellRight(Format.count(m.cacheWrite()), NUMBER + 1, theme.dim()).build());
        }
        if (t.models().isEmpty()) {
            out.add(new Line(w).add("   no model requests yet", theme.muted()).build());
        }
        out.add(Line.blank(w));
        out.add(new Line(w).add(" Upstream rate limits (its headers)", theme.title()).build());
        rateLimits(theme, t, c.frame().at(), w, out);
        if (!t.budget().isEmpty()) {
            out.add(Line.blank(w));
            out.add(new Line(w).add(" Budget (pacing)", theme.title()).add("   " + t.tokenQueue() + " waiting for tokens",
                    t.tokenQueue() > 0 ? theme.warn() : theme.dim()).build());
            for (RateLimitKind k : RateLimitKind.values()) {
                Double level = t.budget().get(k);
                if (level != null) {
                    long waits = t.budgetWaits().getOrDefault(k.label(), 0L);
                    out.add(new Line(w).add("   ", theme.text()).cell(k.word(), 16, theme.text())
                            .cellRight(Format.count(Math.round(level)), NUMBER, level < 0 ? theme.error() : theme.text())
                            .add(" left   " + waits + " waited", theme.dim()).build());
                }
            }
        }
        return Body.scrolling(out);
    }

    private static void rateLimits(Theme theme, TokenFrame t, Instant now, int w, List<AttributedString> out) {
        Map<RateLimitKind, RateLimitReading> readings = t.rateLimits().readings();
        for (RateLimitKind k : RateLimitKind.values()) {
            RateLimitReading r = readings.get(k);
            if (r == null) {
                continue;
            }
            String left = (r.remaining() < 0 ? "?" : Format.count(r.remaining())) + " of " + (r.limit() < 0 ? "?" : Format.count(r.limit()));
            double used = r.limit() > 0 && r.remaining() >= 0 ? 1 - r.remaining() / (double) r.limit() : 0;
            Line l = new Line(w).add("   ", theme.text()).cell(k.word(), 16, theme.text())
                    .cellRight(left, 15, theme.gauge(used)).add(" left", theme.dim());
            if (r.reset() != null) {
                Duration in = Duration.between(now, r.reset());
                l.add("   reset " + (in.isNegative() ? "passed" : "in " + Format.duration(in)), theme.dim());
            }
            out.add(l.build());
        }
        if (t.retryHolds(now)) {
            out.add(new Line(w).add("   ", theme.text()).cell("retry-after", 16, theme.text())
                    .add("holds for " + Format.duration(Duration.between(now, t.rateLimits().retryUntil())), theme.warn()).build());
        }
        if (readings.isEmpty() && !t.retryHolds(now)) {
            out.add(new Line(w).add("   none stated yet", theme.muted()).build());
        }
    }
}
