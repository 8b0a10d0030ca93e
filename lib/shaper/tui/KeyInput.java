package shaper.tui;

import java.io.IOError;
import java.util.concurrent.BlockingQueue;

import org.jline.keymap.BindingReader;
import org.jline.keymap.KeyMap;
import org.jline.terminal.MouseEvent;
import org.jline.terminal.Terminal;
import org.jline.utils.InfoCmp.Capability;

/**
 * Reads the terminal on its own daemon thread and posts what it decodes (keys, mouse events) to the
 * render loop's queue. Escape sequences are matched with a JLine key map holding both the
 * terminal's own sequences (terminfo) and the common ANSI forms; a lone Esc is told from the start
 * of a sequence by a short timeout. The thread ends when the terminal is closed.
 *
 * <p>It is also the only reader of the terminal's replies to queries: every control sequence and
 * OSC/DCS string is read whole, so no reply can reach the dashboard as keys, however late it comes.
 * The replies to the dashboard's own queries are posted as {@link Input.Background} (OSC 11) and
 * {@link Input.QueriesAnswered} (DA1); every other one is dropped.
 */
final class KeyInput {
    /** How long a lone Esc waits to see whether a sequence follows. */
    static final long ESCAPE_TIMEOUT_MS = 80;

    private static final Object MOUSE = new Object();
    /** The start of a control sequence no key is bound to (a terminal's reply to a query, an unknown key). */
    private static final Object CSI = new Object();
    /** The start of an OSC or DCS string (colour or version replies), ended by BEL or ESC backslash. */
    private static final Object STRING = new Object();

    private KeyInput() {
    }

    /** Starts the reader thread. */
    static Thread start(Terminal terminal, BlockingQueue<Input> queue) {
        KeyMap<Object> map = keyMap(terminal);
        BindingReader reader = new BindingReader(terminal.reader());
        return Thread.ofPlatform().daemon().name("shaper-tui-keys").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Object bound = reader.readBinding(map, null, true);
                    if (bound == null) {
                        return; // end of input
                    }
                    Input in = decode(bound, reader, terminal);
                    if (in != null) {
                        queue.put(in);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOError | RuntimeException e) {
                // the terminal was closed under the reader: the dashboard is exiting
            }
        });
    }

    private static Input decode(Object bound, BindingReader reader, Terminal terminal) {
        if (bound == CSI) {
            return TerminalReplies.deviceAttributes(readControlSequence(reader)) ? new Input.QueriesAnswered() : null;
        }
        if (bound == STRING) {
            return TerminalReplies.background(readString(reader)).<Input>map(Input.Background::new).orElse(null);
        }
        if (bound == MOUSE) {
            MouseEvent e = terminal.readMouseEvent(reader::readCharacter, reader.getLastBinding());
            return mouse(e);
        }
        Input.Name name = (Input.Name) bound;
        if (name == Input.Name.CHAR) {
            String s = reader.getLastBinding();
            return s == null || s.isEmpty() ? null : Input.Key.typed(s.charAt(0));
        }
        return Input.Key.of(name);
    }

    /** Reads the rest of an unbound CSI sequence: parameters and intermediates up to and with its final byte. */
    private static String readControlSequence(BindingReader reader) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            int c = reader.readCharacter();
            if (c < 0) {
                break;
            }
            sb.append((char) c);
            if (c >= 0x40 && c <= 0x7e) {
                break;
            }
        }
        return sb.toString();
    }

    /** Reads the rest of an OSC or DCS string, up to BEL or ST (ESC backslash), bounded; returns it without the terminator. */
    private static String readString(BindingReader reader) {
        StringBuilder sb = new StringBuilder();
        boolean escape = false;
        for (int i = 0; i < 4096; i++) {
            int c = reader.readCharacter();
            if (c < 0 || c == 7) {
                break;
            }
            if (escape && c == '\\') {
                sb.setLength(sb.length() - 1);
                break;
            }
            escape = c == 27;
            sb.append((char) c);
        }
        return sb.toString();
    }

    private static Input mouse(MouseEvent e) {
        if (e.getType() == MouseEvent.Type.Wheel || e.getButton() == MouseEvent.Button.WheelUp
                || e.getButton() == MouseEvent.Button.WheelDown) {
            boolean up = e.getButton() == MouseEvent.Button.WheelUp;
            return new Input.Mouse(up ? Input.MouseKind.WHEEL_UP : Input.MouseKind.WHEEL_DOWN, e.getX(), e.getY());
        }
        if (e.getButton() != MouseEvent.Button.Button1) {
            return null;
        }
        return switch (e.getType()) {
            case Pressed -> new Input.Mouse(Input.MouseKind.PRESS, e.getX(), e.getY());
            case Dragged -> new Input.Mouse(Input.MouseKind.DRAG, e.getX(), e.getY());
            default -> null;
        };
    }

    static KeyMap<Object> keyMap(Terminal t) {
        KeyMap<Object> m = new KeyMap<>();
        m.setAmbiguousTimeout(ESCAPE_TIMEOUT_MS);
        m.setUnicode(Input.Name.CHAR);
        m.bind(Input.Name.CHAR, KeyMap.range(" -~"));
        bind(m, t, Input.Name.UP, Capability.key_up, "\033[A", "\033OA");
        bind(m, t, Input.Name.DOWN, Capability.key_down, "\033[B", "\033OB");
        bind(m, t, Input.Name.RIGHT, Capability.key_right, "\033[C", "\033OC");
        bind(m, t, Input.Name.LEFT, Capability.key_left, "\033[D", "\033OD");
        bind(m, t, Input.Name.PAGE_UP, Capability.key_ppage, "\033[5~");
        bind(m, t, Input.Name.PAGE_DOWN, Capability.key_npage, "\033[6~");
        bind(m, t, Input.Name.HOME, Capability.key_home, "\033[H", "\033OH", "\033[1~", "\033[7~");
        bind(m, t, Input.Name.END, Capability.key_end, "\033[F", "\033OF", "\033[4~", "\033[8~");
        bind(m, t, Input.Name.BACK_TAB, Capability.key_btab, "\033[Z");
        m.bind(Input.Name.ENTER, "\r", "\n");
        m.bind(Input.Name.ESCAPE, KeyMap.esc());
        m.bind(Input.Name.TAB, "\t");
        m.bind(Input.Name.BACKSPACE, KeyMap.del(), KeyMap.ctrl('H'));
        m.bind(Input.Name.CTRL_C, KeyMap.ctrl('C'));
        m.bind(Input.Name.CTRL_U, KeyMap.ctrl('U'));
        m.bind(Input.Name.CTRL_D, KeyMap.ctrl('D'));
        String mouse = KeyMap.key(t, Capability.key_mouse);
        if (mouse != null && !mouse.isEmpty()) {
            m.bind(MOUSE, mouse);
        }
        m.bind(MOUSE, "\033[M", "\033[<");
        // replies to terminal queries and keys not bound above are read whole and dropped, so their
        // characters never reach the dashboard as keys
        m.bind(CSI, "\033[");
        m.bind(STRING, "\033]", "\033P");
        return m;
    }

    private static void bind(KeyMap<Object> m, Terminal t, Input.Name name, Capability cap, String... ansi) {
        String seq = KeyMap.key(t, cap);
        if (seq != null && !seq.isEmpty()) {
            m.bind(name, seq);
        }
        m.bind(name, ansi);
    }
}
