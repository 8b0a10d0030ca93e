package shaper.tui;

import java.time.Duration;
import java.time.Instant;

/**
 * Applies keys and mouse events to the {@link ViewState}, against where the last screen put things
 * ({@link Hits}). Overlays take keys first: help closes on any key, the reset confirmation wants
 * y or n, a detail scrolls and closes on Esc, Enter or Space; then the filter being typed; then the
 * main keys. Ctrl+C always asks to quit, and so does {@code q} once a stop is under way. Runs on the render loop's thread.
 */
final class Controller {
    private static final int WHEEL_LINES = 3;

    private final ViewState state;
    private final FrameSource source;
    private final Throughput throughput;
    private final Toasts toasts;

    Controller(ViewState state, FrameSource source, Throughput throughput, Toasts toasts) {
        this.state = state;
        this.source = source;
        this.throughput = throughput;
        this.toasts = toasts;
    }

    void apply(Input input, Hits hits, Instant now) {
        switch (input) {
            case Input.Quit q -> state.quitRequests++;
            case Input.Resize r -> {
            }
            case Input.Background b -> {
                // the render loop changes the theme itself
            }
            case Input.QueriesAnswered a -> {
            }
            case Input.Key k -> key(k, hits, now);
            case Input.Mouse m -> mouse(m, hits);
        }
    }

    private void key(Input.Key k, Hits hits, Instant now) {
        if (k.name() == Input.Name.CTRL_C || k.is('q') && state.quitRequests > 0) {
            state.quitRequests++;
            return;
        }
        if (state.overlay != null) {
            overlayKey(k, hits, now);
            return;
        }
        if (state.editingFilter) {
            filterKey(k);
            return;
        }
        if (hits.tooSmall()) {
            if (k.is('q')) {
                state.quitRequests++;
            }
            return;
        }
        int page = hits.contentRows();
        switch (k.name()) {
            case UP -> move(-1, hits);
            case DOWN -> move(1, hits);
            case LEFT -> tab(state.tab.ordinal() - 1);
            case RIGHT -> tab(state.tab.ordinal() + 1);
            case PAGE_UP -> move(-page, hits);
            case PAGE_DOWN -> move(page, hits);
            case CTRL_U -> move(-Math.max(1, page / 2), hits);
            case CTRL_D -> move(Math.max(1, page / 2), hits);
            case HOME -> top();
            case END -> bottom(hits);
            case TAB -> state.provider++;
            case BACK_TAB -> state.provider--;
            case ENTER -> open(hits);
            case ESCAPE -> {
                if (state.tab.filterable) {
                    state.filter("");
                }
            }
            case CHAR -> character(k.ch(), hits);
            default -> {
            }
        }
    }

    private void character(char c, Hits hits) {
        Tab t = Tab.forKey(c);
        if (t != null) {
            state.tab = t;
            return;
        }
        switch (c) {
            case 'q' -> state.quitRequests++;
            case '?' -> state.overlay = new Overlay.Help();
            case 'j' -> move(1, hits);
            case 'k' -> move(-1, hits);
            case 'g' -> top();
            case 'G' -> bottom(hits);
            case ' ' -> open(hits);
            case 'c' -> state.overlay = new Overlay.ConfirmReset();
            case '/' -> state.editingFilter = state.tab.filterable;
            case 't' -> {
                if (state.tab == Tab.NETWORK) {
                    state.kind = state.kind.next();
                    top();
                }
            }
            case 's' -> {
                if (state.tab == Tab.NETWORK) {
                    state.status = state.status.next();
                    top();
                }
            }
            default -> {
            }
        }
    }

    private void overlayKey(Input.Key k, Hits hits, Instant now) {
        switch (state.overlay) {
            case Overlay.Help h -> state.overlay = null;
            case Overlay.ConfirmReset c -> {
                if (k.is('y') || k.is('Y')) {
                    source.reset();
                    throughput.clear();
                    toasts.post(Toasts.Kind.INFO, "counters reset");
                    state.overlay = null;
                } else if (k.is('n') || k.is('N') || k.name() == Input.Name.ESCAPE || k.is('q')) {
                    state.overlay = null;
                }
            }
            case Overlay.Detail d -> {
                int page = Math.max(1, hits.contentRows() - 3);
                switch (k.name()) {
                    case ESCAPE, ENTER -> state.overlay = null;
                    case UP -> state.overlay = d.scrolled(-1);
                    case DOWN -> state.overlay = d.scrolled(1);
                    case PAGE_UP, CTRL_U -> state.overlay = d.scrolled(-page);
                    case PAGE_DOWN, CTRL_D -> state.overlay = d.scrolled(page);
                    case HOME -> state.overlay = d.scrolled(-Integer.MAX_VALUE / 2);
                    case CHAR -> {
                        switch (k.ch()) {
                            case ' ', 'q' -> state.overlay = null;
                            case 'j' -> state.overlay = d.scrolled(1);
                            case 'k' -> state.overlay = d.scrolled(-1);
                            case 'g' -> state.overlay = d.scrolled(-Integer.MAX_VALUE / 2);
                            default -> {
                            }
                        }
                    }
                    default -> {
                    }
                }
            }
        }
    }

    private void filterKey(Input.Key k) {
        switch (k.name()) {
            case CHAR -> state.filter(state.filter() + k.ch());
            case BACKSPACE -> {
                String f = state.filter();
                state.filter(f.isEmpty() ? f : f.substring(0, f.length() - 1));
            }
            case ENTER -> state.editingFilter = false;
            case ESCAPE -> {
                state.filter("");
                state.editingFilter = false;
            }
            default -> {
            }
        }
    }

    private void mouse(Input.Mouse m, Hits hits) {
        if (state.overlay != null) {
            if (state.overlay instanceof Overlay.Detail d && (m.kind() == Input.MouseKind.WHEEL_UP || m.kind() == Input.MouseKind.WHEEL_DOWN)) {
                state.overlay = d.scrolled(m.kind() == Input.MouseKind.WHEEL_UP ? -WHEEL_LINES : WHEEL_LINES);
            } else if (m.kind() == Input.MouseKind.PRESS && !(state.overlay instanceof Overlay.ConfirmReset)) {
                state.overlay = null;
            }
            return;
        }
        switch (m.kind()) {
            case WHEEL_UP -> move(-WHEEL_LINES, hits);
            case WHEEL_DOWN -> move(WHEEL_LINES, hits);
            case PRESS, DRAG -> click(m, hits);
        }
    }

    private void click(Input.Mouse m, Hits hits) {
        boolean inContent = m.y() >= hits.contentTop() && m.y() < hits.contentTop() + hits.contentRows();
        if (inContent && m.x() == hits.scrollbar() && hits.bodyLines() > hits.contentRows()) {
            double f = hits.contentRows() <= 1 ? 0 : (m.y() - hits.contentTop()) / (double) (hits.contentRows() - 1);
            int target = (int) Math.round(f * (hits.bodyLines() - 1));
            if (hits.selectable()) {
                state.cursor(target);
            } else {
                state.offset(target - hits.contentRows() / 2);
            }
            return;
        }
        if (m.kind() == Input.MouseKind.DRAG) {
            return;
        }
        for (Span s : hits.chips()) {
            if (s.contains(m.x(), m.y())) {
                state.provider = s.index();
                return;
            }
        }
        for (Span s : hits.tabs()) {
            if (s.contains(m.x(), m.y())) {
                state.tab = Tab.values()[s.index()];
                return;
            }
        }
        if (inContent && hits.selectable()) {
            state.cursor(state.offset() + m.y() - hits.contentTop());
        }
    }

    private void move(int delta, Hits hits) {
        if (hits.selectable()) {
            state.cursor(state.cursor() + delta);
        } else {
            state.offset(state.offset() + delta);
        }
    }

    private void top() {
        state.cursor(0);
        state.offset(0);
    }

    private void bottom(Hits hits) {
        state.cursor(Math.max(0, hits.bodyLines() - 1));
        state.offset(Math.max(0, hits.bodyLines() - hits.contentRows()));
    }

    private void tab(int ordinal) {
        state.tab = Tab.values()[Math.floorMod(ordinal, Tab.values().length)];
    }

    private void open(Hits hits) {
        if (hits.selectable() && state.cursor() < hits.bodyLines()) {
            state.overlay = hits.detail().apply(state.cursor());
        }
    }
}
