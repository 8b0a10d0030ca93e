package shaper.cli;

/**
 * A usage error (unknown flag, malformed syntax, a value that does not parse): the CLI exits 2 with
 * a hint pointing at {@code -h}. It may say which flag of which part of the command line it is
 * about, so that a configuration file can point at the line the flag came from.
 */
public final class UsageException extends RuntimeException {
    private final String flag;
    private final int section;

    public UsageException(String message) {
        this(message, null, -1);
    }

    /**
     * @param flag    the flag concerned ({@code -concurrency}), or {@code null}
     * @param section 0 for the head (server flags, or the single flattened provider), N for the Nth
     *                {@code --provider} section, -1 when unknown
     */
    public UsageException(String message, String flag, int section) {
        super(message);
        this.flag = flag;
        this.section = section;
    }

    /** The flag concerned, or {@code null}. */
    public String flag() {
        return flag;
    }

    /** See {@link #UsageException(String, String, int)}. */
    public int section() {
        return section;
    }
}
