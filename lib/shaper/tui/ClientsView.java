package shaper.tui;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jline.utils.AttributedString;

/**
 * Tab 8: who is asking. One row per client seen in flight or in the last minute's finished
 * exchanges: exchanges active and queued now, the oldest queued one's wait, and tokens per minute
 * (input and output of the exchanges that finished in the last 60 s). Busiest first.
 */
final class ClientsView {
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private ClientsView() {
    }

    /** One client's row. */
    private static final class Row {
        int active;
        int queued;
        Duration oldest = Duration.ZERO;
        long tokens;
    }

    static Body render(Context c) {
        Theme theme = c.theme();
        int w = c.width();
        Map<String, Row> rows = new LinkedHashMap<>();
        for (InFlightRow f : c.provider().inFlight()) {
            Row r = rows.computeIfAbsent(f.client(), k -> new Row());
            if (f.queued()) {
                r.queued++;
                r.oldest = f.age().compareTo(r.oldest) > 0 ? f.age() : r.oldest;
            } else {
                r.active++;
            }
        }
        Instant since = c.frame().at().minus(MINUTE);
        for (RequestRow q : c.provider().requests()) {
            if (q.arrived().isAfter(since)) {
                rows.computeIfAbsent(q.client(), k -> new Row()).tokens += q.usage().allInput() + q.usage().output();
            }
        }
        int name = Math.max(12, w - 1 - 10 * 4);
        List<Map.Entry<String, Row>> sorted = new ArrayList<>(rows.entrySet());
        sorted.sort((a, b) -> Integer.compare(b.getValue().active + b.getValue().queued, a.getValue().active + a.getValue().queued));
        List<AttributedString> lines = new ArrayList<>();
        for (Map.Entry<String, Row> e : sorted) {
            Row r = e.getValue();
            lines.add(new Line(w).add(" ", theme.text()).cell(e.getKey(), name, theme.text())
                    .cellRight(String.valueOf(r.active), 10, r.active > 0 ? theme.ok() : theme.dim())
                    .cellRight(String.valueOf(r.queued), 10, r.queued > 0 ? theme.warn() : theme.dim())
                    .cellRight(r.queued == 0 ? "-" : Format.duration(r.oldest), 10, theme.text())
                    .cellRight(String.valueOf(r.tokens), 10, theme.accent()).build());
        }
        if (lines.isEmpty()) {
            lines.add(new Line(w).add("  no clients yet", theme.muted()).build());
        }
        AttributedString header = new Line(w).add(" ", theme.dim()).cell("Client", name, theme.dim())
                .cellRight("Active", 10, theme.dim()).cellRight("Queued", 10, theme.dim()).cellRight("Oldest", 10, theme.dim())
                .cellRight("Tok/min", 10, theme.dim()).build();
        return new Body(List.of(header), lines, null, "");
    }
}
