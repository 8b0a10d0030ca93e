package shaper.tui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jline.utils.AttributedString;

/**
 * Tab 4: the captured log lines, newest first (so the newest stays in view). With several
 * providers it shows the lines of the provider on screen and the server's own lines (those naming
 * no provider). {@code /} filters; Enter shows the whole line wrapped.
 */
final class LogsView {
    private LogsView() {
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        int w = c.width();
        String f = c.state().filter().toLowerCase(Locale.ROOT);
        boolean several = c.frame().providers().size() > 1;
        String provider = c.provider().name();
        List<String> all = c.frame().logs();
        List<String> shown = new ArrayList<>();
        int own = 0;
        for (int i = all.size() - 1; i >= 0; i--) {
            String line = all.get(i);
            if (several && !provider(line).map(provider::equals).orElse(true)) {
                continue;
            }
            own++;
            if (f.isEmpty() || line.toLowerCase(Locale.ROOT).contains(f)) {
                shown.add(line);
            }
        }
        List<AttributedString> lines = new ArrayList<>(shown.size());
        for (String s : shown) {
            lines.add(new Line(w).add(" ", theme.text()).add(s, style(theme, s)).build());
        }
        if (shown.isEmpty()) {
            lines.add(new Line(w).add("  no log lines" + (f.isEmpty() ? " yet" : " match the filter"), theme.muted()).build());
        }
        return new Body(List.of(), lines, shown.isEmpty() ? null : i -> Details.ofLog(shown.get(i)),
                shown.size() + "/" + own + " lines");
    }

    /** The {@code provider=NAME} field of a logfmt line, if it has one. */
    static java.util.Optional<String> provider(String line) {
        int at = line.startsWith("provider=") ? 0 : line.indexOf(" provider=") + 1;
        if (at == 0 && !line.startsWith("provider=")) {
            return java.util.Optional.empty();
        }
        int from = at + "provider=".length();
        int end = line.indexOf(' ', from);
        String value = line.substring(from, end < 0 ? line.length() : end);
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        return java.util.Optional.of(value);
    }

    private static org.jline.utils.AttributedStyle style(Theme theme, String line) {
        if (line.contains("WARNING") || line.contains("outcome=aborted") || line.contains("outcome=failed")) {
            return theme.warn();
        }
        return theme.text();
    }
}
