package shaper.tui;

import java.util.List;
import java.util.function.IntFunction;

import org.jline.utils.AttributedString;

/**
 * A tab's content before it is fitted into the window: sticky lines that stay on top (column
 * headers), then the scrollable lines. A list tab also says how to open the detail behind each
 * scrollable line, which makes its lines selectable with a cursor; other tabs just scroll.
 *
 * @param sticky  lines drawn above the scrolled region
 * @param lines   the scrollable lines
 * @param detail  for a list tab, the detail overlay of line i (built only when opened); null otherwise
 * @param status  a short note for the right end of the separator (filters), "" for none
 */
record Body(List<AttributedString> sticky, List<AttributedString> lines, IntFunction<Overlay.Detail> detail, String status) {
    Body {
        sticky = List.copyOf(sticky);
        lines = List.copyOf(lines);
    }

    /** A plain scrolling body. */
    static Body scrolling(List<AttributedString> lines) {
        return new Body(List.of(), lines, null, "");
    }

    boolean selectable() {
        return detail != null;
    }
}
