package shaper.launcher;

/**
 * A launch that stops before or instead of running Claude Code; the message is printed after
 * {@code claude-launcher: } and {@link #exitCode()} becomes the launcher's exit code.
 */
public final class LaunchException extends Exception {
    /** A bad value or a refused port, file or executable. */
    public static final int FAILED = 1;
    /** The launcher's own arguments do not parse. */
    public static final int USAGE = 2;

    private final int exitCode;

    public LaunchException(String message) {
        this(message, FAILED);
    }

    public LaunchException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
