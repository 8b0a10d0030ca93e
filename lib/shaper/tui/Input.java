package shaper.tui;

/**
 * What the render loop reacts to besides its own tick: a key, a mouse event, a resize, a quit signal,
 * and the terminal's replies to the dashboard's startup queries.
 */
sealed interface Input {
    /** The keys the dashboard binds; {@link #CHAR} carries a typed character. */
    enum Name {
        CHAR, UP, DOWN, LEFT, RIGHT, PAGE_UP, PAGE_DOWN, HOME, END, ENTER, ESCAPE, TAB, BACK_TAB, BACKSPACE,
        CTRL_C, CTRL_U, CTRL_D
    }

    record Key(Name name, char ch) implements Input {
        static Key of(Name name) {
            return new Key(name, '\0');
        }

        static Key typed(char c) {
            return new Key(Name.CHAR, c);
        }

        boolean is(char c) {
            return name == Name.CHAR && ch == c;
        }
    }

    /** Mouse kinds the dashboard uses; columns and rows count from 0. */
    enum MouseKind {
        PRESS, DRAG, WHEEL_UP, WHEEL_DOWN
    }

    record Mouse(MouseKind kind, int x, int y) implements Input {
    }

    record Resize() implements Input {
    }

    /** SIGINT (Ctrl+C when the terminal turns it into a signal) or SIGTERM. */
    record Quit() implements Input {
    }

    /** The terminal's reply to the background colour query (OSC 11): its background as 0xRRGGBB. */
    record Background(int rgb) implements Input {
    }

    /**
     * The terminal's reply to the device attributes query (DA1), sent after the colour query: every
     * terminal answers it, and in order, so once it is here a colour reply that has not come never will.
     */
    record QueriesAnswered() implements Input {
    }
}
