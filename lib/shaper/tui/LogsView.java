package shaper.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jline.utils.AttributedString;

/**
 * Tab 4: the captured log lines, newest first (so the newest stays in view). {@code /} filters;
 * Enter shows the whole line wrapped.
 */
final class LogsView {
    private LogsView() {
    }

    static Body render(Context c) {
        int w = c.width();
        String f = c.state().filter().toLowerCase(Locale.ROOT);
        List<String> all = c.frame().logs();
        List<String> shown = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0; i--) {
            String line = all.get(i);
            if (f.isEmpty() || line.toLowerCase(Locale.ROOT).contains(f)) {
                shown.add(line);
            }
        }
        List<AttributedString> lines = new ArrayList<>(shown.size());
        for (String s : shown) {
            lines.add(new Line(w).add(" ", Theme.text()).add(s, style(s)).build());
        }
        if (shown.isEmpty()) {
            lines.add(new Line(w).add("  no log lines" + (f.isEmpty() ? " yet" : " match the filter"), Theme.muted()).build());
        }
        return new Body(List.of(), lines, shown.isEmpty() ? null : i -> Details.ofLog(shown.get(i)),
                shown.size() + "/" + all.size() + " lines");
    }

    private static org.jline.utils.AttributedStyle style(String line) {
        if (line.contains("WARNING") || line.contains("outcome=aborted") || line.contains("outcome=failed")) {
            return Theme.warn();
        }
        return Theme.text();
    }
}
