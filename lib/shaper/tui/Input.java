package shaper.tui;

/** What the render loop reacts to besides its own tick: a key, a mouse event, a resize, a quit signal. */
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
}
