package shaper.tui;

import java.io.IOException;
import java.util.List;

import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.AttributedString;
import org.jline.utils.Display;
import org.jline.utils.InfoCmp.Capability;

/**
 * The process's terminal, owned by the dashboard: raw mode, the alternate screen, hidden cursor and
 * mouse reporting while it draws; {@link #restore()} puts every one of those back (it is idempotent,
 * so the normal exit and the shutdown hook may both call it). Frames are written through JLine's
 * {@link Display}, which sends only the cells that changed.
 */
final class TuiTerminal implements AutoCloseable {
    /** Stdout (or stdin) is not a terminal: {@code -tui} cannot run. */
    static final class Unavailable extends Exception {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Terminal terminal;
    private Display display;
    private Attributes saved;
    private boolean mouse;
    private boolean active;

    private TuiTerminal(Terminal terminal) {
        this.terminal = terminal;
    }

    /** Opens the system terminal without changing it; fails when stdout is not a TTY. */
    static TuiTerminal open() throws Unavailable {
        // JLine sends the light box-drawing characters (─ │ ┌ …) through the VT100 line-drawing charset,
        // which tmux's capture shows as "q" and "x"; with this switch it sends ASCII for them instead.
        // The dashboard draws with heavy and dashed box characters, which pass through as UTF-8.
        System.setProperty("org.jline.utils.disableAlternateCharset", "true");
        Terminal t;
        try {
            // graphemeCluster(false): no mode probe at startup. The probe writes queries whose replies,
            // when they come after its 200 ms wait (a busy machine), would reach the key reader as typed
            // keys ("?1;2c": help, tab 2, reset); widths here are wcwidth's anyway.
            t = TerminalBuilder.builder().system(true).systemOutput(TerminalBuilder.SystemOutput.SysOut)
                    .dumb(false).nativeSignals(true).graphemeCluster(false).build();
        } catch (IOException | IllegalStateException e) {
            throw new Unavailable("standard output is not a terminal", e);
        }
        if (Terminal.TYPE_DUMB.equals(t.getType()) || Terminal.TYPE_DUMB_COLOR.equals(t.getType())) {
            close(t);
            throw new Unavailable("the terminal is dumb (TERM=" + t.getType() + ")", null);
        }
        return new TuiTerminal(t);
    }

    Terminal terminal() {
        return terminal;
    }

    /** Raw mode, alternate screen, keypad mode, hidden cursor, mouse reporting when available. */
    synchronized void enter() {
        saved = terminal.enterRawMode();
        terminal.puts(Capability.enter_ca_mode);
        terminal.puts(Capability.keypad_xmit);
        terminal.puts(Capability.cursor_invisible);
        mouse = terminal.hasMouseSupport() && terminal.trackMouse(Terminal.MouseTracking.Button);
        terminal.flush();
        display = new Display(terminal, true);
        display.resize(size());
        active = true;
    }

    /**
     * Writes {@code queries} (escape sequences asking the terminal something). Only the key reader
     * reads the replies ({@link KeyInput}); this method never waits for them.
     */
    synchronized void ask(String queries) {
        if (active) {
            terminal.writer().write(queries);
            terminal.flush();
        }
    }

    /** Whether the terminal reports mouse events. */
    boolean mouse() {
        return mouse;
    }

    Size size() {
        Size s = terminal.getSize();
        return s.getColumns() <= 0 || s.getRows() <= 0 ? Size.of(80, 24) : s;
    }

    /** Draws {@code rows} (one per terminal row) after a resize has been taken into account. */
    synchronized void draw(List<AttributedString> rows, boolean resized) {
        if (!active) {
            return;
        }
        if (resized) {
            display.clear();
            display.resize(size());
        }
        display.update(rows, 0, true);
        terminal.flush();
    }

    /** Leaves the screen as it was found; safe to call twice and from a shutdown hook. */
    synchronized void restore() {
        if (!active) {
            return;
        }
        active = false;
        if (mouse) {
            terminal.trackMouse(Terminal.MouseTracking.Off);
        }
        terminal.puts(Capability.cursor_visible);
        terminal.puts(Capability.keypad_local);
        terminal.puts(Capability.exit_ca_mode);
        terminal.flush();
        if (saved != null) {
            terminal.setAttributes(saved);
        }
    }

    @Override
    public void close() {
        restore();
        close(terminal);
    }

    private static void close(Terminal t) {
        try {
            t.close();
        } catch (IOException e) {
            // the terminal is going away; nothing to restore on a closed stream
        }
    }
}
