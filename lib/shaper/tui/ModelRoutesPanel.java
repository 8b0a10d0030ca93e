package shaper.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jline.utils.AttributedString;

/**
 * The Routes tab's part for the routed mount: each route ({@code pattern → targets}), then one line
 * per target with the exchanges it served, then one line per fallback ({@code from→to why}) with its
 * count. Nothing without a routed mount.
 */
final class ModelRoutesPanel {
    private ModelRoutesPanel() {
    }

    static List<AttributedString> render(Context c) {
        List<ModelRouteStat> routes = c.frame().modelRoutes();
        if (routes.isEmpty()) {
            return List.of();
        }
        Theme theme = c.theme();
        int w = c.width();
        int name = Math.max(10, w - 1 - 4 - 8);
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new Line(w).build());
        lines.add(new Line(w).add(" Model routes", theme.dim()).build());
        for (ModelRouteStat r : routes) {
            lines.add(new Line(w).add(" ", theme.text()).add(r.pattern(), theme.accent()).add(" → ", theme.dim())
                    .add(String.join(", ", r.targets()), theme.text()).build());
            for (Map.Entry<String, Long> t : r.served().entrySet()) {
                lines.add(new Line(w).add("    ", theme.text()).cell("served by " + t.getKey(), name, theme.text())
                        .cellRight(String.valueOf(t.getValue()), 8, t.getValue() > 0 ? theme.status(200) : theme.dim()).build());
            }
            for (Map.Entry<String, Long> f : r.fallbacks().entrySet()) {
                lines.add(new Line(w).add("    ", theme.text()).cell("fallback " + f.getKey(), name, theme.text())
                        .cellRight(String.valueOf(f.getValue()), 8, theme.error()).build());
            }
        }
        return lines;
    }
}
