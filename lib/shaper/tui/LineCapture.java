package shaper.tui;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * An output stream that cuts UTF-8 text into lines and hands each to a {@link LogRing}. It stands in
 * for stdout and stderr while the dashboard draws, so a log line never lands on top of the screen.
 * A partial line waits for its terminator (or {@link #flush()} with nothing more to come is fine:
 * the fragment stays until the rest arrives). Control characters are replaced, so a logged string
 * cannot move the cursor or change colours. Thread-safe.
 */
public final class LineCapture extends OutputStream {
    /** A line longer than this is cut, so one runaway write cannot grow memory without bound. */
    static final int MAX_LINE_BYTES = 16 * 1024;

    private final LogRing ring;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream(256);

    public LineCapture(LogRing ring) {
        this.ring = ring;
    }

    /** A print stream over a new capture of {@code ring}. */
    public static PrintStream printStream(LogRing ring) {
        return new PrintStream(new LineCapture(ring), true, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            emit();
        } else if (pending.size() < MAX_LINE_BYTES) {
            pending.write(b);
        }
    }

    /** Whole runs between line ends are copied at once: a log line is one lock and one copy, not one per byte. */
    @Override
    public synchronized void write(byte[] b, int off, int len) {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                keep(b, start, i - start);
                emit();
                start = i + 1;
            }
        }
        keep(b, start, off + len - start);
    }

    private void keep(byte[] b, int off, int len) {
        int room = MAX_LINE_BYTES - pending.size();
        if (room > 0 && len > 0) {
            pending.write(b, off, Math.min(room, len));
        }
    }

    @Override
    public synchronized void close() {
        if (pending.size() > 0) {
            emit();
        }
    }

    private void emit() {
        String line = pending.toString(StandardCharsets.UTF_8);
        pending.reset();
        ring.add(printable(line));
    }

    /** Replaces control characters (ESC above all) with U+FFFD, dropping a trailing CR. */
    static String printable(String line) {
        String s = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 && c < 0xa0;
            if (control || c == '\t') {
                if (sb == null) {
                    sb = new StringBuilder(s.length()).append(s, 0, i);
                }
                sb.append(c == '\t' ? ' ' : '\uFFFD');
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }
}
