package shaper.tui;

import java.util.ArrayList;
import java.util.List;

import org.jline.utils.AttributedString;

/**
 * Tab 6: per-route totals since start or reset: Total, 2xx, 4xx, 5xx, queue timeouts and req/s over
 * 10 s; below them the routed mount's model routes and where their traffic went.
 */
final class RoutesView {
    private RoutesView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        int w = c.width();
        int route = Math.max(10, w - 1 - 8 * 5 - 8);
        List<AttributedString> lines = new ArrayList<>();
        for (RouteStat r : c.provider().routeStats()) {
            lines.add(new Line(w).add(" ", theme.text()).cell(r.route(), route, theme.text())
                    .cellRight(String.valueOf(r.total()), 8, theme.text())
                    .cellRight(String.valueOf(r.ok()), 8, theme.status(200))
                    .cellRight(String.valueOf(r.client()), 8, theme.status(400))
                    .cellRight(String.valueOf(r.server()), 8, theme.status(500))
                    .cellRight(String.valueOf(r.timeouts()), 8, r.timeouts() > 0 ? theme.error() : theme.dim())
                    .cellRight(Format.rate(r.perSecond()), 8, theme.accent()).build());
        }
        if (lines.isEmpty()) {
            lines.add(new Line(w).add("  no requests yet", theme.muted()).build());
        }
        lines.addAll(ModelRoutesPanel.render(c));
        AttributedString header = new Line(w).add(" ", theme.dim()).cell("Route", route, theme.dim())
                .cellRight("Total", 8, theme.dim()).cellRight("2xx", 8, theme.dim()).cellRight("4xx", 8, theme.dim())
                .cellRight("5xx", 8, theme.dim()).cellRight("✗ TO", 8, theme.dim()).cellRight("req/s", 8, theme.dim()).build();
        return new Body(List.of(header), lines, null, "");
    }
}
