package shaper.tui;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The last {@link #CAPACITY} log lines, for the Logs tab. While the dashboard owns the terminal,
 * everything the proxy would print (exchange lines, startup notes, warnings) lands here instead.
 * Thread-safe: writers are the log writer thread and whoever prints a warning; the reader is the
 * render loop, which copies the lines a few times a second.
 */
public final class LogRing {
    /** The Logs tab keeps 2048 lines: pages of scroll-back, in memory that a chatty proxy cannot grow. */
    public static final int CAPACITY = 2048;

    private final ArrayDeque<String> lines = new ArrayDeque<>(CAPACITY);
    private long appended;

    /** Adds one line (without its line terminator), dropping the oldest when full. */
    public synchronized void add(String line) {
        if (lines.size() == CAPACITY) {
            lines.removeFirst();
        }
        lines.addLast(line);
        appended++;
    }

    /** The retained lines, oldest first. */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** Lines ever added; tells the render loop whether anything changed. */
    public synchronized long appended() {
        return appended;
    }

    /** Forgets every line (the dashboard's reset). */
    public synchronized void clear() {
        lines.clear();
    }
}
