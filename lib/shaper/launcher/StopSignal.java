package shaper.launcher;

/** The catchable signals the launcher passes on to Claude Code. */
public enum StopSignal {
    INT(2),
    TERM(15);

    private final int number;

    StopSignal(int number) {
        this.number = number;
    }

    /** The shell convention for a process ended by this signal: 128 + its number. */
    public int exitCode() {
        return 128 + number;
    }

    /** {@code SIGINT} / {@code SIGTERM}. */
    public String signalName() {
        return "SIG" + name();
    }
}
